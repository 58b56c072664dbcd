// The blocks of the picture as instanced squares: one square per memory-map cell (its colour
// mixes the size classes by how many bytes of each the cell holds; free space is dark, the
// largest free block a dark green), one per pool block, and the free-block histogram as
// stacked squares. Everything is written into the InstancedQuads arrays in place.
import { InstancedQuads } from '../../render/instanced-quads.ts';
import { CELL_CLASSES, FREE_BINS, type MemoryMap } from './memory-map.ts';
import { MAP_COLUMNS, POOL_COLUMNS, type Box, type SceneLayout } from './layout.ts';
import { BAR, BAR_LARGEST, CLASS_COLORS, FREE, LARGEST_FREE, LEGEND } from './palette.ts';

/** Tallest histogram column, in rows of squares. */
const BAR_SQUARES = 24;
/** Most squares side by side in one histogram row. */
const BAR_ACROSS = 6;
/** Legend rows, in pixels. */
export const LEGEND_ROW = 22;

export class BlockPicture {
  readonly quads: InstancedQuads;
  count = 0;
  /** Blocks per histogram square of the latest frame (the caption says it). */
  blocksPerSquare = 1;
  #width = 1;
  #height = 1;

  constructor(device: GPUDevice, format: GPUTextureFormat, mapCells: number, poolBlocks: number) {
    this.quads = new InstancedQuads(device, format, mapCells + poolBlocks + FREE_BINS * BAR_SQUARES * BAR_ACROSS + LEGEND.length);
  }

  /** Starts a frame: squares are then placed in pixels of a `layout`-sized canvas. */
  begin(layout: SceneLayout): void {
    this.count = 0;
    this.#width = layout.width;
    this.#height = layout.height;
  }

  #square(px: number, py: number, sizePx: number, r: number, g: number, b: number): void {
    const i = this.count++;
    const { positions, colors, sizes } = this.quads;
    positions[i * 2] = (px / this.#width) * 2 - 1;
    positions[i * 2 + 1] = 1 - (py / this.#height) * 2;
    sizes[i] = (sizePx / this.#height) * 2;
    colors[i * 4] = r;
    colors[i * 4 + 1] = g;
    colors[i * 4 + 2] = b;
    colors[i * 4 + 3] = 1;
  }

  /** The memory map, `map.cellBytes` per square, row by row in address order. */
  memory(map: MemoryMap, box: Box, pitch: number): void {
    const { cover, cells, cellBytes } = map;
    const size = Math.max(1, pitch - (pitch > 4 ? 1 : 0));
    const largestStart = map.largestFree > 0 ? map.largestFreeStart : -1;
    const largestEnd = largestStart + map.largestFree;
    for (let cell = 0; cell < cells; cell++) {
      const start = cell * cellBytes;
      // A cell wholly inside the largest free block is tinted: where the next big request goes.
      const base = start >= largestStart && start + cellBytes <= largestEnd ? LARGEST_FREE : FREE;
      let r: number = base[0];
      let g: number = base[1];
      let b: number = base[2];
      for (let c = 0; c < CELL_CLASSES; c++) {
        const share = cover[cell * CELL_CLASSES + c]! / cellBytes;
        if (share === 0) continue;
        r += share * (CLASS_COLORS[c * 3]! - base[0]);
        g += share * (CLASS_COLORS[c * 3 + 1]! - base[1]);
        b += share * (CLASS_COLORS[c * 3 + 2]! - base[2]);
      }
      const col = cell % MAP_COLUMNS;
      const row = (cell - col) / MAP_COLUMNS;
      this.#square(box.x + (col + 0.5) * pitch, box.y + (row + 0.5) * pitch, size, r, g, b);
    }
  }

  /** The pool's blocks: coloured by their request's class when used, dark when free. */
  pool(blockClass: Uint8Array, box: Box, pitch: number): void {
    const size = Math.max(1, pitch - (pitch > 4 ? 1 : 0));
    for (let block = 0; block < blockClass.length; block++) {
      const c = blockClass[block]! - 1;
      const col = block % POOL_COLUMNS;
      const row = (block - col) / POOL_COLUMNS;
      const x = box.x + (col + 0.5) * pitch;
      const y = box.y + (row + 0.5) * pitch;
      if (c < 0) this.#square(x, y, size, FREE[0], FREE[1], FREE[2]);
      else this.#square(x, y, size, CLASS_COLORS[c * 3]!, CLASS_COLORS[c * 3 + 1]!, CLASS_COLORS[c * 3 + 2]!);
    }
  }

  /** Free blocks per power-of-two size: one column per bin, bottom up. */
  freeBins(map: MemoryMap, box: Box): void {
    const bins = map.freeBins;
    let most = 0;
    for (let i = 0; i < FREE_BINS; i++) most = Math.max(most, bins[i]!);
    const perSquare = Math.max(1, Math.ceil(most / BAR_SQUARES));
    this.blocksPerSquare = perSquare;
    const columnPitch = box.width / FREE_BINS;
    const step = box.height / BAR_SQUARES;
    // Columns a few squares wide, so the bars read as bars and not as hairlines.
    const across = Math.max(1, Math.min(BAR_ACROSS, Math.floor((columnPitch * 0.6) / step)));
    const size = Math.max(1, step - (step > 4 ? 1 : 0));
    const largestBin = map.largestFree > 0 ? Math.max(0, Math.min(FREE_BINS - 1, 31 - Math.clz32(map.largestFree) - 4)) : -1;
    for (let i = 0; i < FREE_BINS; i++) {
      const squares = Math.ceil(bins[i]! / perSquare);
      const color = i === largestBin ? BAR_LARGEST : BAR;
      const left = box.x + (i + 0.5) * columnPitch - (across * step) / 2;
      for (let s = 0; s < squares; s++) {
        const y = box.y + box.height - (s + 0.5) * step;
        for (let a = 0; a < across; a++) this.#square(left + (a + 0.5) * step, y, size, color[0], color[1], color[2]);
      }
    }
  }

  /** The legend's swatches, one row each (the overlay writes the words beside them). */
  legend(box: Box): void {
    for (let i = 0; i < LEGEND.length; i++) {
      const rgb = LEGEND[i]!.rgb;
      this.#square(box.x + 7, box.y + (i + 0.5) * LEGEND_ROW, 14, rgb[0]!, rgb[1]!, rgb[2]!);
    }
  }

  draw(encoder: GPUCommandEncoder, target: GPUTextureView): void {
    this.quads.draw(encoder, target, this.count, this.#width / this.#height);
  }

  destroy(): void {
    this.quads.destroy();
  }
}
