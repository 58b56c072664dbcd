// The merged level drawn top-down with the demo's InstancedQuads: one square per unit at its
// x/z (north up), lamps in their light colour with a glow as wide as their range, outlines in
// the colour of whoever changed the unit, faint ghosts where moved units stood in the base and
// where removed units were. Quads are kept in level units and fitted to the canvas each frame.
import { InstancedQuads } from '../../render/instanced-quads.ts';
import type { MergeView } from './merge-session.ts';
import type { PlacedUnit } from './placed-units.ts';
import { baseUnits, unitChanges, type UnitChange } from './unit-changes.ts';

const CAPACITY = 4096;
type Rgba = readonly [number, number, number, number];

const LOOK: Record<string, { size: number; color: Rgba }> = {
  'units/floor': { size: 42, color: [0.12, 0.13, 0.17, 1] },
  'units/pool': { size: 6, color: [0.15, 0.4, 0.85, 1] },
  'units/column': { size: 1.4, color: [0.62, 0.63, 0.68, 1] },
  'units/crate': { size: 1.1, color: [0.6, 0.4, 0.2, 1] },
  'units/walker': { size: 0.9, color: [0.2, 0.75, 0.7, 1] },
  'units/lamp': { size: 1, color: [1, 0.7, 0.4, 1] },
};
const OTHER = { size: 1, color: [0.85, 0.85, 0.85, 1] } as const;
const OUTLINE: Record<UnitChange, Rgba> = { A: [0.31, 0.76, 0.97, 1], B: [0.72, 0.6, 0.9, 1], both: [1, 1, 1, 1], conflict: [1, 0.6, 0.2, 1] };
const REMOVED: Rgba = [0.95, 0.35, 0.35, 0.45];
const GLOW_STEPS = [1.8, 1.3, 0.9, 0.5];
const withAlpha = (c: readonly number[], a: number): Rgba => [c[0] ?? 1, c[1] ?? 1, c[2] ?? 1, a];
/** Whole-level units (the floor) are drawn first so everything else lands on them. */
const UNDERLAY = new Set(['units/floor', 'units/pool']);

export class LevelMap {
  readonly #quads: InstancedQuads;
  /** Per quad in level units: x, z, size. */
  readonly #world = new Float32Array(CAPACITY * 3);
  #count = 0;
  /** Quads of open-conflict outlines, which pulse. */
  #pulsing: number[] = [];
  #bounds = { cx: 0, cz: 0, hx: 22, hz: 22 };

  constructor(device: GPUDevice, format: GPUTextureFormat) {
    this.#quads = new InstancedQuads(device, format, CAPACITY);
  }

  get quadCount(): number {
    return this.#count;
  }

  #push(x: number, z: number, size: number, color: Rgba): number {
    const i = this.#count;
    if (i >= CAPACITY) return -1;
    this.#world.set([x, z, size], i * 3);
    this.#quads.colors.set(color, i * 4);
    this.#count++;
    return i;
  }

  /** Rebuilds the quads from a merge view (after every merge or pick). */
  update(view: MergeView): void {
    this.#count = 0;
    this.#pulsing = [];
    const changes = unitChanges(view);
    const before = baseUnits(view);
    const look = (u: PlacedUnit): { size: number; color: Rgba } => LOOK[u.unit] ?? OTHER;
    const units = view.units;
    for (const u of units) if (UNDERLAY.has(u.unit)) this.#push(u.x, u.z, look(u).size, look(u).color);
    // Squares stacked from wide and faint to small: a stepped glow as wide as the light's range.
    for (const u of units) if (u.light) for (const k of GLOW_STEPS) this.#push(u.x, u.z, u.light.range * k, withAlpha(u.light.color, 0.09));
    const byId = new Map(units.map((u) => [u.id, u]));
    for (const [id, old] of before) {
      const now = byId.get(id);
      if (!now) this.#push(old.x, old.z, look(old).size, REMOVED);
      else if (!UNDERLAY.has(now.unit) && (now.x !== old.x || now.z !== old.z)) this.#push(old.x, old.z, look(old).size, withAlpha(look(old).color, 0.28));
    }
    for (const u of units) {
      if (UNDERLAY.has(u.unit)) continue;
      const { size, color } = look(u);
      const change = changes.get(u.id);
      if (change) {
        const i = this.#push(u.x, u.z, size + (change === 'conflict' ? 1.6 : 0.9), OUTLINE[change]);
        if (change === 'conflict' && i >= 0) this.#pulsing.push(i);
      }
      this.#push(u.x, u.z, size, u.light ? withAlpha(u.light.color, 1) : color);
    }
    let [minX, maxX, minZ, maxZ] = [-21, 21, -21, 21];
    for (const u of units) [minX, maxX, minZ, maxZ] = [Math.min(minX, u.x), Math.max(maxX, u.x), Math.min(minZ, u.z), Math.max(maxZ, u.z)];
    this.#bounds = { cx: (minX + maxX) / 2, cz: (minZ + maxZ) / 2, hx: (maxX - minX) / 2 + 2, hz: (maxZ - minZ) / 2 + 2 };
  }

  draw(encoder: GPUCommandEncoder, target: GPUTextureView, width: number, height: number, time: number): void {
    const aspect = width / height;
    const { cx, cz, hx, hz } = this.#bounds;
    // Level units to clip space: fit both extents; x is divided by the aspect (the shader divides sizes too).
    const s = Math.min(0.94 / hz, (0.94 * aspect) / hx);
    const q = this.#quads;
    for (let i = 0; i < this.#count; i++) {
      q.positions[2 * i] = ((this.#world[3 * i]! - cx) * s) / aspect;
      q.positions[2 * i + 1] = -(this.#world[3 * i + 1]! - cz) * s;
      q.sizes[i] = this.#world[3 * i + 2]! * s;
    }
    const pulse = 0.7 + 0.3 * Math.sin(time * 5);
    for (const i of this.#pulsing) q.colors[4 * i + 3] = pulse;
    q.draw(encoder, target, this.#count, aspect);
  }

  destroy(): void {
    this.#quads.destroy();
  }
}
