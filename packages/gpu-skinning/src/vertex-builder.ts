// Builds the GPU's vertex streams from ordinary per-vertex arrays (glTF accessors, generated
// meshes), checking them on the way: what can be fixed without guessing is fixed and
// reported; what cannot (a bone past the palette, a negative weight, NaN) is refused with a
// GpuSkinningError that lists every problem, and nothing is returned.
import {
  DEFAULT_MAX_VERTICES,
  F32_VERTEX_WORDS,
  MAX_INFLUENCES,
  PACKED_BONES_WORDS,
  PACKED_POSITION_NORMAL_WORDS,
  VERTEX_FORMATS,
  ZERO_WEIGHT_POLICIES,
  type BuildVerticesOptions,
  type F32Vertices,
  type PackedVertices,
  type SkinnedVertexInput,
  type SkinnedVertices,
  type VertexBuildReport,
  type VertexFixKind,
  type VertexRefusalKind,
  type ZeroWeightPolicy,
} from './api.ts';
import { floatBits, packSnorm8x4 } from './codec.ts';
import { GpuSkinningError } from './errors.ts';
import { describeIssues, IssueTally } from './issue-tally.ts';

/** Weight sums further than this from 1 are reported as renormalized (all are normalized exactly). */
const WEIGHT_SUM_TOLERANCE = 1e-3;
const NORMAL_LENGTH_TOLERANCE = 1e-3;
const UNORM16_MAX = 65535;

function weightScale(weights: ArrayLike<number>): number {
  if (weights instanceof Uint8Array || weights instanceof Uint8ClampedArray) return 1 / 255;
  if (weights instanceof Uint16Array) return 1 / UNORM16_MAX;
  return 1;
}

function checkLength(name: string, array: ArrayLike<number> | undefined, expected: number): void {
  if (array !== undefined && array.length !== expected) {
    throw new GpuSkinningError(`${name} has ${array.length} values; ${expected} expected for this vertex count. Pass one entry per vertex of every attribute.`);
  }
}

/**
 * Refuses a mesh of more than options.maxVertices vertices (default DEFAULT_MAX_VERTICES) from
 * its count alone; `name` is the input that holds the positions. Call after checkBuildOptions.
 */
export function checkVertexCount(name: string, vertexCount: number, options: BuildVerticesOptions): void {
  const limit = options.maxVertices ?? DEFAULT_MAX_VERTICES[options.format];
  if (vertexCount <= limit) return;
  const why = options.maxVertices === undefined
    ? ` (the default for ${options.format} vertices: the largest stream fills WebGPU's default 128 MiB maxStorageBufferBindingSize at that count)`
    : '';
  throw new GpuSkinningError(`${name} holds ${vertexCount} vertices, more than maxVertices ${limit}${why}; nothing was read. Split the mesh, or pass maxVertices (your GpuSkinning's maxVertices, on a device with higher limits).`);
}

/** Checks the shapes of the input arrays; returns vertex count and influences per vertex. */
function inputShape(input: SkinnedVertexInput, options: BuildVerticesOptions): { vertexCount: number; influences: number } {
  if (input.positions.length % 3 !== 0) throw new GpuSkinningError(`positions has ${input.positions.length} values, not a multiple of 3 (xyz per vertex).`);
  const vertexCount = input.positions.length / 3;
  if (vertexCount === 0) throw new GpuSkinningError('positions is empty: a skinned mesh needs at least one vertex.');
  checkVertexCount('positions', vertexCount, options);
  const influences = input.influencesPerVertex ?? input.joints.length / vertexCount;
  if (!Number.isInteger(influences) || influences < 1) {
    throw new GpuSkinningError(`joints has ${input.joints.length} values for ${vertexCount} vertices: pass influencesPerVertex (4 per JOINTS_n accessor) or whole sets per vertex.`);
  }
  checkLength('normals', input.normals, vertexCount * 3);
  checkLength('tangents', input.tangents, vertexCount * 4);
  checkLength('wind', input.wind, vertexCount);
  checkLength('joints', input.joints, vertexCount * influences);
  checkLength('weights', input.weights, vertexCount * influences);
  return { vertexCount, influences };
}

/** Checks the options of buildSkinnedVertices; returns the zero-weight policy. */
export function checkBuildOptions(options: BuildVerticesOptions): ZeroWeightPolicy {
  if (!(VERTEX_FORMATS as readonly string[]).includes(options.format)) throw new GpuSkinningError(`format must be 'packed' or 'f32', got ${options.format as string}.`);
  if (options.paletteSize !== undefined && (!Number.isInteger(options.paletteSize) || options.paletteSize < 1)) {
    throw new GpuSkinningError(`paletteSize must be a positive integer, got ${options.paletteSize}.`);
  }
  if (options.format === 'packed' && options.paletteSize !== undefined && options.paletteSize > UNORM16_MAX + 1) {
    throw new GpuSkinningError(`paletteSize ${options.paletteSize} does not fit the packed format's u16 bone indices (at most 65536).`);
  }
  if (options.maxVertices !== undefined && (!Number.isInteger(options.maxVertices) || options.maxVertices < 1)) {
    throw new GpuSkinningError(`maxVertices must be a positive integer, got ${options.maxVertices}.`);
  }
  const policy = options.zeroWeights ?? 'refuse';
  if (!(ZERO_WEIGHT_POLICIES as readonly string[]).includes(policy)) throw new GpuSkinningError(`zeroWeights must be 'refuse', 'first-joint' or 'unskinned', got ${policy as string}.`);
  return policy;
}

/**
 * Builds packed or f32 vertex streams from per-vertex arrays. Influences are merged by joint,
 * trimmed to the four largest, sorted largest first (so the kernel's weight-sum loop exits
 * early) and normalized to sum to one exactly (packed: to 65535 in unorm16).
 * Throws GpuSkinningError listing every refused problem; otherwise returns the streams and a
 * report of what was fixed.
 */
export function buildSkinnedVertices(input: SkinnedVertexInput, options: BuildVerticesOptions): { vertices: SkinnedVertices; report: VertexBuildReport } {
  const zeroPolicy = checkBuildOptions(options);
  const { vertexCount, influences } = inputShape(input, options);
  const { positions, normals, tangents, wind, joints, weights } = input;
  const scale = weightScale(weights);
  const paletteSize = options.paletteSize ?? Number.POSITIVE_INFINITY;
  const maxJoint = options.format === 'packed' ? UNORM16_MAX : 0xffffffff;
  const fixed = new IssueTally<VertexFixKind>();
  const refused = new IssueTally<VertexRefusalKind>();

  const packed = options.format === 'packed';
  const positionNormal = packed ? new Uint32Array(vertexCount * PACKED_POSITION_NORMAL_WORDS) : new Uint32Array(0);
  const tangentWords = packed ? new Uint32Array(vertexCount) : new Uint32Array(0);
  const bones = packed ? new Uint32Array(vertexCount * PACKED_BONES_WORDS) : new Uint32Array(0);
  const floats = packed ? new Float32Array(0) : new Float32Array(vertexCount * F32_VERTEX_WORDS);
  const words = new Uint32Array(floats.buffer);

  // Per-vertex scratch, allocated once.
  const jointScratch = new Float64Array(influences);
  const weightScratch = new Float64Array(influences);
  const keptJoint = new Uint32Array(MAX_INFLUENCES);
  const keptWeight = new Float64Array(MAX_INFLUENCES);
  const quantized = new Uint32Array(MAX_INFLUENCES);
  let maxInfluences = 0;
  let bonesUsed = 0;

  for (let v = 0; v < vertexCount; v++) {
    const px = positions[v * 3]!, py = positions[v * 3 + 1]!, pz = positions[v * 3 + 2]!;
    if (!Number.isFinite(px) || !Number.isFinite(py) || !Number.isFinite(pz)) refused.add('non-finite', v, `position (${px}, ${py}, ${pz})`);

    let nx = 0, ny = 1, nz = 0;
    if (normals) {
      nx = normals[v * 3]!; ny = normals[v * 3 + 1]!; nz = normals[v * 3 + 2]!;
      const length = Math.hypot(nx, ny, nz);
      if (!Number.isFinite(length)) refused.add('non-finite', v, `normal (${nx}, ${ny}, ${nz})`);
      else if (length < 1e-12) refused.add('zero-normal', v, 'normal of zero length: give the vertex a real normal');
      else if (Math.abs(length - 1) > NORMAL_LENGTH_TOLERANCE) {
        fixed.add('renormalized-normals', v, `normal length ${length.toPrecision(4)} scaled to 1`);
        nx /= length; ny /= length; nz /= length;
      }
    }
    let tx = 1, ty = 0, tz = 0, tw = 1;
    if (tangents) {
      tx = tangents[v * 4]!; ty = tangents[v * 4 + 1]!; tz = tangents[v * 4 + 2]!; tw = tangents[v * 4 + 3]!;
      const length = Math.hypot(tx, ty, tz);
      if (!Number.isFinite(length) || !Number.isFinite(tw)) refused.add('non-finite', v, `tangent (${tx}, ${ty}, ${tz}, ${tw})`);
      else if (length < 1e-12) refused.add('zero-normal', v, 'tangent of zero length: give the vertex a real tangent or leave tangents out');
      else {
        if (Math.abs(length - 1) > NORMAL_LENGTH_TOLERANCE) {
          fixed.add('renormalized-normals', v, `tangent length ${length.toPrecision(4)} scaled to 1`);
          tx /= length; ty /= length; tz /= length;
        }
        if (tw !== 1 && tw !== -1) {
          fixed.add('tangent-handedness', v, `tangent w ${tw} set to ${tw < 0 ? -1 : 1}`);
          tw = tw < 0 ? -1 : 1;
        }
      }
    }
    let windWeight = 0;
    if (wind) {
      windWeight = wind[v]!;
      if (!Number.isFinite(windWeight)) refused.add('non-finite', v, `wind ${windWeight}`);
      else if (windWeight < 0 || windWeight > 1) {
        fixed.add('clamped-wind', v, `wind ${windWeight} clamped to [0, 1]`);
        windWeight = Math.min(1, Math.max(0, windWeight));
      }
    }

    // Influences: merge duplicates, drop zeros, check indices and weights.
    let count = 0;
    let merged = false;
    let bad = false;
    for (let i = 0; i < influences; i++) {
      const joint = joints[v * influences + i]!;
      const weight = weights[v * influences + i]! * scale;
      if (!Number.isFinite(weight)) { refused.add('non-finite', v, `weight ${weight} on joint ${joint}`); bad = true; continue; }
      if (weight < 0) { refused.add('negative-weight', v, `weight ${weight} on joint ${joint}`); bad = true; continue; }
      if (weight === 0) continue;
      if (!Number.isInteger(joint) || joint < 0 || joint > maxJoint) { refused.add('bad-joint-index', v, `joint index ${joint} is not an integer in [0, ${maxJoint}]`); bad = true; continue; }
      if (joint >= paletteSize) { refused.add('bone-index-past-palette', v, `joint ${joint} with a palette of ${paletteSize} bones`); bad = true; continue; }
      let slot = 0;
      while (slot < count && jointScratch[slot] !== joint) slot++;
      if (slot < count) { weightScratch[slot]! += weight; merged = true; continue; }
      jointScratch[count] = joint;
      weightScratch[count] = weight;
      count++;
    }
    if (bad) continue;
    if (merged) fixed.add('merged-duplicate-joints', v, 'the same joint listed twice: weights added');
    if (count > maxInfluences) maxInfluences = count;

    // Keep the four largest, largest first (ties: lower joint first).
    let kept = 0;
    let droppedWeight = 0;
    for (let i = 0; i < count; i++) {
      const joint = jointScratch[i]!, weight = weightScratch[i]!;
      let at = kept;
      while (at > 0 && (keptWeight[at - 1]! < weight || (keptWeight[at - 1] === weight && keptJoint[at - 1]! > joint))) at--;
      if (at >= MAX_INFLUENCES) { droppedWeight += weight; continue; }
      if (kept === MAX_INFLUENCES) droppedWeight += keptWeight[MAX_INFLUENCES - 1]!;
      for (let j = Math.min(kept, MAX_INFLUENCES - 1); j > at; j--) { keptJoint[j] = keptJoint[j - 1]!; keptWeight[j] = keptWeight[j - 1]!; }
      keptJoint[at] = joint;
      keptWeight[at] = weight;
      if (kept < MAX_INFLUENCES) kept++;
    }
    if (count > MAX_INFLUENCES) fixed.add('dropped-influences', v, `${count} influences: the ${count - MAX_INFLUENCES} smallest dropped (weight ${droppedWeight.toPrecision(3)}), the rest renormalized`);

    let sum = 0;
    for (let i = 0; i < kept; i++) sum += keptWeight[i]!;
    if (kept === 0) {
      if (zeroPolicy === 'refuse') { refused.add('zero-weights', v, "all weights zero: give the vertex a joint, or pass zeroWeights: 'first-joint' or 'unskinned'"); continue; }
      if (zeroPolicy === 'first-joint') {
        const first = joints[v * influences]!;
        if (!Number.isInteger(first) || first < 0 || first >= Math.min(paletteSize, maxJoint + 1)) { refused.add('bad-joint-index', v, `all weights zero and first joint ${first} unusable`); continue; }
        fixed.add('zero-weights-bound-to-first-joint', v, `all weights zero: bound to joint ${first}`);
        keptJoint[0] = first;
        keptWeight[0] = 1;
        kept = 1;
        sum = 1;
      } else {
        fixed.add('zero-weights-left-unskinned', v, 'all weights zero: left in bind pose, untransformed');
      }
    } else if (count <= MAX_INFLUENCES && Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      fixed.add('renormalized-weights', v, `weights summed to ${sum.toPrecision(4)}: scaled to 1`);
    }
    for (let i = 0; i < kept; i++) if (keptJoint[i]! + 1 > bonesUsed) bonesUsed = keptJoint[i]! + 1;
    for (let i = kept; i < MAX_INFLUENCES; i++) { keptJoint[i] = 0; keptWeight[i] = 0; }

    if (packed) {
      quantizeWeights(keptWeight, kept, sum, quantized);
      const p = v * PACKED_POSITION_NORMAL_WORDS;
      positionNormal[p] = floatBits(px);
      positionNormal[p + 1] = floatBits(py);
      positionNormal[p + 2] = floatBits(pz);
      positionNormal[p + 3] = packSnorm8x4(nx, ny, nz, windWeight);
      tangentWords[v] = packSnorm8x4(tx, ty, tz, tw);
      const b = v * PACKED_BONES_WORDS;
      bones[b] = (keptJoint[0]! | (keptJoint[1]! << 16)) >>> 0;
      bones[b + 1] = (keptJoint[2]! | (keptJoint[3]! << 16)) >>> 0;
      bones[b + 2] = (quantized[0]! | (quantized[1]! << 16)) >>> 0;
      bones[b + 3] = (quantized[2]! | (quantized[3]! << 16)) >>> 0;
    } else {
      const o = v * F32_VERTEX_WORDS;
      floats[o] = px; floats[o + 1] = py; floats[o + 2] = pz; floats[o + 3] = windWeight;
      floats[o + 4] = nx; floats[o + 5] = ny; floats[o + 6] = nz; floats[o + 7] = 0;
      floats[o + 8] = tx; floats[o + 9] = ty; floats[o + 10] = tz; floats[o + 11] = tw;
      for (let i = 0; i < MAX_INFLUENCES; i++) {
        words[o + 12 + i] = keptJoint[i]!;
        floats[o + 16 + i] = sum > 0 ? keptWeight[i]! / sum : 0;
      }
    }
  }

  if (refused.size > 0) {
    const problems = refused.list();
    throw new GpuSkinningError(`Vertex data refused (nothing was built):\n${describeIssues(problems)}`, problems);
  }
  const report: VertexBuildReport = { vertexCount, maxInfluences, bonesUsed, fixed: fixed.list() };
  const vertices: PackedVertices | F32Vertices = packed
    ? { format: 'packed', vertexCount, bonesUsed, positionNormal, tangent: tangentWords, bones }
    : { format: 'f32', vertexCount, bonesUsed, floats, words };
  return { vertices, report };
}

/** unorm16 weights that sum to exactly 65535 (largest remainders get the leftover units). */
function quantizeWeights(weights: Float64Array, count: number, sum: number, out: Uint32Array): void {
  out.fill(0);
  if (count === 0 || sum === 0) return;
  let total = 0;
  for (let i = 0; i < count; i++) {
    out[i] = Math.floor((weights[i]! / sum) * UNORM16_MAX);
    total += out[i]!;
  }
  // Hand the missing units to the largest remainders; the order stays largest-first because
  // weights were sorted and at most `count` units are missing.
  let missing = UNORM16_MAX - total;
  while (missing > 0) {
    let best = 0;
    let bestRemainder = -1;
    for (let i = 0; i < count; i++) {
      const remainder = (weights[i]! / sum) * UNORM16_MAX - out[i]!;
      if (remainder > bestRemainder) { bestRemainder = remainder; best = i; }
    }
    out[best]!++;
    missing--;
  }
}
