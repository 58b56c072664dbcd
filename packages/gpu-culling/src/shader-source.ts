// Assembles the WGSL of the culling passes: constants first, then the shared code, then the
// pass, then (for the culling pass) the storage technique and its append.
import commonWgsl from './shaders/common.wgsl?raw';
import prepareWgsl from './shaders/prepare.wgsl?raw';
import depthWgsl from './shaders/depth.wgsl?raw';
import depthAtomicWgsl from './shaders/depth-reduce-atomic.wgsl?raw';
import depthSubgroupsWgsl from './shaders/depth-reduce-subgroups.wgsl?raw';
import coarseWgsl from './shaders/coarse.wgsl?raw';
import cullWgsl from './shaders/cull.wgsl?raw';
import cullFlatWgsl from './shaders/cull-flat.wgsl?raw';
import cullCompactionWgsl from './shaders/cull-compaction.wgsl?raw';
import appendAtomicWgsl from './shaders/cull-append-atomic.wgsl?raw';
import appendBallotWgsl from './shaders/cull-append-ballot.wgsl?raw';
import { COARSE_FACTOR, type Technique, type TileSize } from './api.ts';

/** u32 words before the per-tile entity counts in the statistics buffer (dropped, overflowed tiles, 2 spare). */
export const STATS_HEADER = 4;

export interface ShaderPlan {
  tileSize: TileSize;
  technique: Technique;
  bucketsPerTile: number;
  listCapacity: number;
  /** Flat bits: write a tile as a list where its entities fit in the tile's words. */
  tileLists: boolean;
  cullThreads: number;
  /** Compaction appends by subgroup ballot. */
  subgroups: boolean;
  /** The depth pass reduces over subgroups first. */
  depthSubgroups: boolean;
}

/** Flat bits: the header word in front of a tile (0 in bits form; LIST_FORM and the kind counts in list form). */
export const FLAT_HEADER_WORDS = 1;
/** Flat bits, list form: the header (LIST_FORM | decals | probes << 10 | lights << 20) before the entries. */
export const LIST_HEADER_WORDS = 1;
/** Flat bits: the header bit of a tile written as a list. */
export const LIST_FORM = 0x8000_0000;

/** Invocations per side of the depth pass's workgroup, whatever the tile size. */
const DEPTH_SIDE = 8;

/** Words of the bucket mask in front of a flat-bits tile: one bit per bucket. */
export function maskWords(bucketsPerTile: number): number {
  return Math.ceil(bucketsPerTile / 32);
}

export function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}

function constants(plan: ShaderPlan): string {
  return [
    `const TILE_SIZE: u32 = ${plan.tileSize}u;`,
    `const BUCKETS: u32 = ${plan.bucketsPerTile}u;`,
    `const MASK_WORDS: u32 = ${maskWords(plan.bucketsPerTile)}u;`,
    `const COARSE_FACTOR: u32 = ${COARSE_FACTOR}u;`,
    `const CULL_THREADS: u32 = ${plan.cullThreads}u;`,
    `const DEPTH_SIDE: u32 = ${DEPTH_SIDE}u;`,
    `const PIXELS_SIDE: u32 = ${plan.tileSize / DEPTH_SIDE}u;`,
    `const STATS_HEADER: u32 = ${STATS_HEADER}u;`,
    `const LIST_CAPACITY: u32 = ${plan.listCapacity}u;`,
    `const LIST_STRIDE: u32 = ${plan.listCapacity + 1}u;`,
    `const SORT_SIZE: u32 = ${nextPowerOfTwo(plan.listCapacity)}u;`,
    `const TILE_LISTS: bool = ${plan.tileLists};`,
    `const FLAT_HEADER: u32 = ${FLAT_HEADER_WORDS}u;`,
    `const LIST_HEADER: u32 = ${LIST_HEADER_WORDS}u;`,
    `const LIST_FORM: u32 = 0x${LIST_FORM.toString(16)}u;`,
  ].join('\n');
}

export function prepareSource(plan: ShaderPlan): string {
  return [constants(plan), commonWgsl, prepareWgsl].join('\n');
}

export function depthSource(plan: ShaderPlan): string {
  return [plan.depthSubgroups ? 'enable subgroups;' : '', constants(plan), commonWgsl, depthWgsl, plan.depthSubgroups ? depthSubgroupsWgsl : depthAtomicWgsl].join('\n');
}

export function coarseSource(plan: ShaderPlan): string {
  return [constants(plan), commonWgsl, coarseWgsl].join('\n');
}

export function cullSource(plan: ShaderPlan): string {
  const technique = plan.technique === 'flat-bits' ? [cullFlatWgsl] : [cullCompactionWgsl, plan.subgroups ? appendBallotWgsl : appendAtomicWgsl];
  return [plan.subgroups ? 'enable subgroups;' : '', constants(plan), commonWgsl, cullWgsl, ...technique].join('\n');
}
