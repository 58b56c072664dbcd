// @cuttle/allocators: a TLSF heap and a pool under a seeded allocation storm, drawn as a map of
// their memory, with the free blocks by size, fragmentation over time and the memory report;
// a toggle shows @thi.ng/malloc's MemPool replaying the very same storm, figures side by side.
import { formatBytes, formatMemoryReport, memoryReport } from '@cuttle/allocators';
import type { SceneDefinition } from '../../scene-api.ts';
import { loadDemoFont } from '../gui/demo-font.ts';
import { computeLayout, MAP_COLUMNS, POOL_COLUMNS, type SceneLayout } from './layout.ts';
import { MemoryMap } from './memory-map.ts';
import { MemPoolContender } from './mempool-contender.ts';
import { Overlay, HISTORY, type OverlayText } from './overlay.ts';
import { buildPanel, narrowReport } from './panel.ts';
import { BlockPicture } from './picture.ts';
import { StormScript } from './storm.ts';
import { POOL_BLOCK_BYTES, POOL_BLOCKS, TlsfContender } from './tlsf-contender.ts';
import type { StormContender } from './contender.ts';

const CAPACITY = 1536 * 1024;
const CELL_BYTES = 256;
const MAP_CELLS = CAPACITY / CELL_BYTES;
const SEED = 0x5eed36;
/** Steps run before the first frame, so the picture opens on a heap in its steady state. */
const WARM_UP_STEPS = 2000;
const READOUT_MS = 250;

const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

export const scene: SceneDefinition = {
  id: 'allocators',
  title: 'Allocators: TLSF heap under a storm',
  package: '@cuttle/allocators',
  description: 'A TLSF heap and a pool under a seeded allocation storm: memory map, free blocks, fragmentation and the memory report; toggle @thi.ng/malloc replaying the same storm.',
  async create({ device, format, panel }) {
    const font = await loadDemoFont();
    const ui = buildPanel(panel, formatBytes(CAPACITY));
    const script = new StormScript(SEED);
    const ours = new TlsfContender(CAPACITY);
    const peer = new MemPoolContender(CAPACITY);
    const oursMap = new MemoryMap(MAP_CELLS, CELL_BYTES);
    const peerMap = new MemoryMap(MAP_CELLS, CELL_BYTES);
    const picture = new BlockPicture(device, format, MAP_CELLS, POOL_BLOCKS);
    const overlay = new Overlay(device, format, font);
    const oursHistory = new Float32Array(HISTORY);
    const peerHistory = new Float32Array(HISTORY);
    const captions: OverlayText = { map: '', pool: '', bins: '', graph: 'fragmentation = 1 - largest free block / free bytes', ours: '', peer: '' };
    let head = 0;
    let samples = 0;
    // Milliseconds per storm step, smoothed; both sides replay each step back to back.
    let oursMs = 0;
    let peerMs = 0;
    let layout: SceneLayout | undefined;
    let lastReadout = -Infinity;
    let shownPeer: boolean | undefined;

    function runSteps(count: number): void {
      script.birthsPerStep = Number(ui.births.value);
      let oursTime = 0;
      let peerTime = 0;
      for (let i = 0; i < count; i++) {
        script.advance();
        const start = performance.now();
        ours.replay(script);
        const middle = performance.now();
        peer.replay(script);
        oursTime += middle - start;
        peerTime += performance.now() - middle;
      }
      oursMs += (oursTime / count - oursMs) * 0.1;
      peerMs += (peerTime / count - peerMs) * 0.1;
    }

    /** Records both fragmentation figures; `peerScanned` when this frame already scanned the peer's map. */
    function sample(peerScanned: boolean): void {
      oursHistory[head] = ours.stats().fragmentation;
      if (!peerScanned) peerMap.scan(peer, false);
      peerHistory[head] = peerMap.fragmentation;
      head = (head + 1) % HISTORY;
      samples++;
    }

    // Warm up, sampling the last stretch as the frames would, so the graph opens full.
    const warmSteps = Number(ui.stepsPerFrame.value);
    for (let step = 0; step < WARM_UP_STEPS; step += warmSteps) {
      runSteps(warmSteps);
      if (step >= WARM_UP_STEPS - HISTORY * warmSteps) sample(false);
    }
    oursMs = peerMs = 0;

    function fillColumn(column: 0 | 1, side: StormContender, map: MemoryMap, ms: number): void {
      const rows = ui.cells;
      rows['live blocks'][column].textContent = side.liveBlocks.toLocaleString('en');
      rows.used[column].textContent = formatBytes(map.usedBytes);
      rows['free blocks'][column].textContent = map.freeBlocks.toLocaleString('en');
      rows['largest free'][column].textContent = formatBytes(map.largestFree);
      rows.fragmentation[column].textContent = percent(map.fragmentation);
      rows['failed allocs'][column].textContent = side.failed.toLocaleString('en');
      rows['storm step'][column].textContent = `${(ms * 1000).toFixed(1)} µs`;
    }

    function readouts(showPeer: boolean): void {
      const oursStats = ours.stats();
      oursMap.scan(ours, false);
      fillColumn(0, ours, oursMap, oursMs);
      fillColumn(1, peer, peerMap, peerMs);
      ui.report.textContent = `${narrowReport(formatMemoryReport(memoryReport(ours.heap)))}\n\nheap.stats(): ${oursStats.freeBlockCount} free blocks,\nlargest ${formatBytes(oursStats.largestFreeBlock)} of ${formatBytes(oursStats.freeBytes)} free`;
      const peerStats = peer.pool.stats();
      ui.peerReport.textContent = `free list: ${peerStats.free.count} blocks, ${formatBytes(peerStats.free.size)}\nused list: ${peerStats.used.count} blocks, ${formatBytes(peerStats.used.size)}\ntop: ${peerStats.top}, available ${formatBytes(peerStats.available)}`;

      const map = showPeer ? peerMap : oursMap;
      captions.map = showPeer
        ? `@thi.ng/malloc MemPool · ${formatBytes(CAPACITY)} · one square = ${CELL_BYTES} B, one row = ${formatBytes(CELL_BYTES * MAP_COLUMNS)}`
        : `TLSF HeapAllocator · ${formatBytes(CAPACITY)} · one square = ${CELL_BYTES} B, one row = ${formatBytes(CELL_BYTES * MAP_COLUMNS)}`;
      captions.pool = showPeer
        ? 'MemPool has no pool: its requests up to 64 B are in the map above'
        : `PoolAllocator · ${POOL_BLOCKS} × ${POOL_BLOCK_BYTES} B blocks · ${ours.pool.allocationCount} used`;
      const perSquare = picture.blocksPerSquare > 1 ? ` · one square = ${picture.blocksPerSquare} blocks` : '';
      captions.bins = `free blocks by size class: ${map.freeBlocks}, largest ${formatBytes(map.largestFree)}${perSquare}`;
      captions.ours = `TLSF ${percent(oursStats.fragmentation)}`;
      captions.peer = `MemPool ${percent(peerMap.fragmentation)}`;
      overlay.setText(captions);
    }

    return {
      frame({ encoder, target, width, height }) {
        if (layout?.width !== width || layout.height !== height) {
          layout = computeLayout(width, height, MAP_CELLS / MAP_COLUMNS, POOL_BLOCKS / POOL_COLUMNS);
          overlay.relayout(layout);
        }
        runSteps(Number(ui.stepsPerFrame.value));
        const showPeer = ui.peer.checked;
        const map = showPeer ? peerMap : oursMap;
        map.scan(showPeer ? peer : ours, true);
        sample(showPeer);
        picture.begin(layout);
        picture.memory(map, layout.map, layout.mapPitch);
        if (!showPeer) picture.pool(ours.poolBlockClass, layout.pool, layout.poolPitch);
        picture.freeBins(map, layout.bins);
        picture.legend(layout.legend);
        overlay.graph(oursHistory, peerHistory, head, samples);
        const now = performance.now();
        if (showPeer !== shownPeer || now - lastReadout > READOUT_MS) {
          shownPeer = showPeer;
          lastReadout = now;
          readouts(showPeer);
        }
        picture.draw(encoder, target);
        overlay.draw(encoder, target, width, height);
      },
      stats() {
        const showPeer = ui.peer.checked;
        const side = showPeer ? peer : ours;
        return {
          allocator: showPeer ? 'MemPool (@thi.ng/malloc)' : 'TLSF heap + pool',
          live: `${side.liveBlocks.toLocaleString('en')} blocks`,
          fragmentation: percent(showPeer ? peerMap.fragmentation : ours.stats().fragmentation),
          failed: side.failed.toLocaleString('en'),
          'storm step': `${((showPeer ? peerMs : oursMs) * 1000).toFixed(1)} µs`,
        };
      },
      destroy() {
        picture.destroy();
        overlay.destroy();
        ours.destroy();
        peer.destroy();
      },
    };
  },
};
