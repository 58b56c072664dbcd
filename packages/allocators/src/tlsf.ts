// Two-level segregated fit (Masmano et al.), with every byte of metadata out of band in typed
// arrays, as in Sebastian Aaltonen's offset allocator: the managed range can be a GPUBuffer the
// CPU never touches. Sizes and offsets are in units (the owner's granule); block nodes are
// indices into parallel arrays, so no allocation creates a JavaScript object.
//
// Size classes: a first level per power of two and 16 linear second-level bins inside it, so
// a bin's sizes differ by at most 1/16 (6.25 %). Sizes below 16 units get one exact bin each.
// A bitmap per level finds the first non-empty bin at or above a size class with two
// count-trailing-zero operations: allocate and free are O(1) whatever the heap holds.

import { UsedBlockMap } from './used-block-map.ts';

const SL_LOG2 = 4;
const SL_COUNT = 1 << SL_LOG2;
/** First-level classes: enough for sizes up to 2^32 units. */
const FL_COUNT = 32 - SL_LOG2 + 1;
const BIN_COUNT = FL_COUNT * SL_COUNT;

const NONE = -1;
/** Blocks looked at in the request's own bin before rounding up to the next class. */
const BIN_SCAN_LIMIT = 8;
const STATE_UNUSED = 0;
const STATE_FREE = 1;
const STATE_USED = 2;

function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}

function flOf(size: number): number {
  return size < SL_COUNT ? 0 : 31 - Math.clz32(size) - (SL_LOG2 - 1);
}

function slOf(size: number, fl: number): number {
  return fl === 0 ? size : (size >>> (fl - 1)) - SL_COUNT;
}

/** The TLSF engine behind HeapAllocator, PageAllocator and the GPU range allocator. */
export class TlsfCore {
  /** Units the core manages in total, across every region added. */
  capacity = 0;
  freeUnits = 0;
  freeBlocks = 0;
  usedBlocks = 0;

  private nodeCapacity: number;
  private offset: Uint32Array;
  private size: Uint32Array;
  private prevPhys: Int32Array;
  private nextPhys: Int32Array;
  private prevFree: Int32Array;
  private nextFree: Int32Array;
  private state: Uint8Array;
  /** Recycled node indices, chained through nextFree. */
  private spareNode = NONE;
  private nodeCount = 0;
  /** The block whose end is the highest unit: growth extends it. */
  private tailNode = NONE;

  private readonly binHead = new Int32Array(BIN_COUNT).fill(NONE);
  private flMap = 0;
  private readonly slMap = new Uint32Array(FL_COUNT);
  /** Block start unit -> node, valid for used blocks only (checked against `offset`). */
  /** Start unit of each used block -> its node: what free() and sizeOf() look up. */
  private readonly used = new UsedBlockMap();

  constructor(initialNodes = 256) {
    this.nodeCapacity = initialNodes;
    this.offset = new Uint32Array(initialNodes);
    this.size = new Uint32Array(initialNodes);
    this.prevPhys = new Int32Array(initialNodes);
    this.nextPhys = new Int32Array(initialNodes);
    this.prevFree = new Int32Array(initialNodes);
    this.nextFree = new Int32Array(initialNodes);
    this.state = new Uint8Array(initialNodes);
  }

  /**
   * Adds [start, start + units) as free space. With `joinTail`, when it directly follows the
   * current last block it joins it (contiguous growth); otherwise it is an independent region
   * whose blocks never merge with another region's (separate GPUBuffers, separate chunks).
   */
  addRegion(start: number, units: number, joinTail = false): void {
    const end = start + units;
    this.capacity += units;
    const tail = this.tailNode;
    const tailEnd = tail === NONE ? NONE : this.offset[tail]! + this.size[tail]!;
    if (joinTail && tailEnd === start) {
      if (this.state[tail] === STATE_FREE) {
        this.removeFree(tail);
        this.size[tail] = this.size[tail]! + units;
        this.insertFree(tail);
        return;
      }
      const node = this.newNode(start, units);
      this.nextPhys[tail] = node;
      this.prevPhys[node] = tail;
      this.tailNode = node;
      this.insertFree(node);
      return;
    }
    const node = this.newNode(start, units);
    if (tail === NONE || end > this.offset[tail]! + this.size[tail]!) this.tailNode = node;
    this.insertFree(node);
  }

  /** Returns the start unit of a block of `units` aligned to `alignUnits` (a power of two), or -1. */
  allocate(units: number, alignUnits: number): number {
    const need = alignUnits > 1 ? units + alignUnits - 1 : units;
    // A short look through the request's own size class first: a block there that fits saves
    // splitting a bigger class (often the big tail block), which is most of TLSF's fragmentation.
    let node = this.scanBin(need, BIN_SCAN_LIMIT);
    if (node === NONE) node = this.findFree(need);
    if (node === NONE) node = this.scanBin(need, 0x7fff_ffff);
    if (node === NONE) return NONE;
    this.removeFree(node);
    const start = this.offset[node]!;
    const aligned = alignUnits > 1 ? Math.ceil(start / alignUnits) * alignUnits : start;
    if (aligned !== start) {
      // The block's physical predecessor is used (free neighbours always coalesce), so the
      // padding in front becomes a free block of its own.
      const front = node;
      node = this.splitAfter(front, aligned - start);
      this.insertFree(front);
    }
    if (this.size[node]! > units) {
      const rest = this.splitAfter(node, units);
      this.insertFree(rest);
    }
    this.state[node] = STATE_USED;
    this.used.set(aligned, node);
    this.usedBlocks++;
    return aligned;
  }

  /** Size in units of the used block starting at `start`, or -1 if there is none. */
  sizeOf(start: number): number {
    const node = this.usedNodeAt(start);
    return node === NONE ? NONE : this.size[node]!;
  }

  /** Frees the used block starting at `start`; false (and nothing changed) if there is none. */
  free(start: number): boolean {
    let node = this.usedNodeAt(start);
    if (node === NONE) return false;
    this.used.delete(start);
    this.usedBlocks--;
    this.state[node] = STATE_FREE;
    const next = this.nextPhys[node]!;
    if (next !== NONE && this.state[next] === STATE_FREE) {
      this.removeFree(next);
      this.absorbNext(node);
    }
    const prev = this.prevPhys[node]!;
    if (prev !== NONE && this.state[prev] === STATE_FREE) {
      this.removeFree(prev);
      this.absorbNext(prev);
      node = prev;
    }
    this.insertFree(node);
    return true;
  }

  /** Calls `visit(start, units)` for every used block, in node order. */
  forEachUsed(visit: (start: number, units: number) => void): void {
    for (let n = 0; n < this.nodeCount; n++) {
      if (this.state[n] === STATE_USED) visit(this.offset[n]!, this.size[n]!);
    }
  }

  /** Calls `visit(start, units)` for every free block. */
  forEachFree(visit: (start: number, units: number) => void): void {
    for (let n = 0; n < this.nodeCount; n++) {
      if (this.state[n] === STATE_FREE) visit(this.offset[n]!, this.size[n]!);
    }
  }

  /** Size in units of the largest free block (scans one bin only). */
  largestFree(): number {
    if (this.flMap === 0) return 0;
    const fl = 31 - Math.clz32(this.flMap);
    const sl = 31 - Math.clz32(this.slMap[fl]!);
    let largest = 0;
    for (let n = this.binHead[fl * SL_COUNT + sl]!; n !== NONE; n = this.nextFree[n]!) {
      if (this.size[n]! > largest) largest = this.size[n]!;
    }
    return largest;
  }

  /** Drops every block and returns to an empty core with the same regions all free. */
  clear(regions: readonly (readonly [number, number])[]): void {
    this.used.clear();
    this.binHead.fill(NONE);
    this.flMap = 0;
    this.slMap.fill(0);
    this.state.fill(STATE_UNUSED);
    this.nodeCount = 0;
    this.spareNode = NONE;
    this.tailNode = NONE;
    this.capacity = 0;
    this.freeUnits = 0;
    this.freeBlocks = 0;
    this.usedBlocks = 0;
    for (const [start, units] of regions) this.addRegion(start, units, true);
  }

  private usedNodeAt(start: number): number {
    if (!(start >= 0 && start <= 0xfffffffe) || !Number.isInteger(start)) return NONE;
    const node = this.used.get(start);
    if (node < 0 || node >= this.nodeCount || this.state[node] !== STATE_USED || this.offset[node] !== start) return NONE;
    return node;
  }

  /** Cuts `node` after `units`; returns the new node holding the remainder (not yet binned). */
  private splitAfter(node: number, units: number): number {
    const rest = this.newNode(this.offset[node]! + units, this.size[node]! - units);
    this.size[node] = units;
    const next = this.nextPhys[node]!;
    this.nextPhys[rest] = next;
    this.prevPhys[rest] = node;
    this.nextPhys[node] = rest;
    if (next !== NONE) this.prevPhys[next] = rest;
    if (this.tailNode === node) this.tailNode = rest;
    return rest;
  }

  /** Merges the physical successor of `node` into it and recycles the successor's node. */
  private absorbNext(node: number): void {
    const next = this.nextPhys[node]!;
    this.size[node] = this.size[node]! + this.size[next]!;
    const after = this.nextPhys[next]!;
    this.nextPhys[node] = after;
    if (after !== NONE) this.prevPhys[after] = node;
    if (this.tailNode === next) this.tailNode = node;
    this.state[next] = STATE_UNUSED;
    this.nextFree[next] = this.spareNode;
    this.spareNode = next;
  }

  private newNode(start: number, units: number): number {
    let node = this.spareNode;
    if (node !== NONE) {
      this.spareNode = this.nextFree[node]!;
    } else {
      if (this.nodeCount === this.nodeCapacity) this.growNodes();
      node = this.nodeCount++;
    }
    this.offset[node] = start;
    this.size[node] = units;
    this.prevPhys[node] = NONE;
    this.nextPhys[node] = NONE;
    this.state[node] = STATE_FREE;
    return node;
  }

  private growNodes(): void {
    const capacity = this.nodeCapacity * 2;
    const grow = <T extends Uint32Array | Int32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const grown = make(capacity);
      grown.set(old);
      return grown;
    };
    this.offset = grow(this.offset, (n) => new Uint32Array(n));
    this.size = grow(this.size, (n) => new Uint32Array(n));
    this.prevPhys = grow(this.prevPhys, (n) => new Int32Array(n));
    this.nextPhys = grow(this.nextPhys, (n) => new Int32Array(n));
    this.prevFree = grow(this.prevFree, (n) => new Int32Array(n));
    this.nextFree = grow(this.nextFree, (n) => new Int32Array(n));
    this.state = grow(this.state, (n) => new Uint8Array(n));
    this.nodeCapacity = capacity;
  }

  /** First node in the first non-empty bin whose every block holds `units` (good fit). */
  private findFree(units: number): number {
    let size = units;
    if (size >= SL_COUNT) {
      // Round up to the next bin boundary so any block found there is big enough.
      const round = (1 << (31 - Math.clz32(size) - SL_LOG2)) - 1;
      size = Math.min(size + round, 0xffff_ffff);
    }
    let fl = flOf(size);
    if (fl >= FL_COUNT) return NONE;
    const sl = slOf(size, fl);
    let slMap = this.slMap[fl]! & (~0 << sl);
    if (slMap === 0) {
      const flMap = fl + 1 >= 32 ? 0 : this.flMap & (~0 << (fl + 1));
      if (flMap === 0) return NONE;
      fl = ctz(flMap);
      slMap = this.slMap[fl]!;
    }
    // Of the first few blocks in the bin, take the lowest address: like address-ordered first
    // fit, this packs allocations low and keeps the high free space in one piece.
    let best = this.binHead[fl * SL_COUNT + ctz(slMap)]!;
    let left = BIN_SCAN_LIMIT;
    for (let n = this.nextFree[best]!; n !== NONE && left > 0; n = this.nextFree[n]!, left--) {
      if (this.offset[n]! < this.offset[best]!) best = n;
    }
    return best;
  }

  /** First block of at least `units` among the first `limit` blocks in the request's own bin. */
  private scanBin(units: number, limit: number): number {
    const fl = flOf(units);
    if (fl >= FL_COUNT) return NONE;
    let left = limit;
    let best = NONE;
    for (let n = this.binHead[fl * SL_COUNT + slOf(units, fl)]!; n !== NONE && left > 0; n = this.nextFree[n]!, left--) {
      if (this.size[n]! >= units && (best === NONE || this.offset[n]! < this.offset[best]!)) best = n;
    }
    return best;
  }

  private insertFree(node: number): void {
    const size = this.size[node]!;
    const fl = flOf(size);
    const sl = slOf(size, fl);
    const bin = fl * SL_COUNT + sl;
    const head = this.binHead[bin]!;
    this.state[node] = STATE_FREE;
    this.prevFree[node] = NONE;
    this.nextFree[node] = head;
    if (head !== NONE) this.prevFree[head] = node;
    this.binHead[bin] = node;
    this.flMap |= 1 << fl;
    this.slMap[fl] = this.slMap[fl]! | (1 << sl);
    this.freeUnits += size;
    this.freeBlocks++;
  }

  private removeFree(node: number): void {
    const size = this.size[node]!;
    const prev = this.prevFree[node]!;
    const next = this.nextFree[node]!;
    if (next !== NONE) this.prevFree[next] = prev;
    if (prev !== NONE) {
      this.nextFree[prev] = next;
    } else {
      const fl = flOf(size);
      const sl = slOf(size, fl);
      this.binHead[fl * SL_COUNT + sl] = next;
      if (next === NONE) {
        const slMap = this.slMap[fl]! & ~(1 << sl);
        this.slMap[fl] = slMap;
        if (slMap === 0) this.flMap &= ~(1 << fl);
      }
    }
    this.freeUnits -= size;
    this.freeBlocks--;
  }
}
