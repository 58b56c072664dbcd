// The entities to cull, kept on the host as flat typed arrays in the GPU layout, one array per
// kind, so the upload is a copy in the posts' order: decals, then environment probes, then
// lights. Every entity is four vec4 (64 bytes):
//
//   point/spot light  v0 = position.xyz, range     v1 = direction.xyz, cos(outer half-angle)
//                     v2 = colour.rgb * intensity, cos(inner half-angle)
//                     v3 = u32 (kind, userData, 0, 0)
//   decal/probe       v0, v1, v2 = rows of the world-to-box matrix (the box is [-1, 1]^3)
//                     v3 = u32 (kind, userData, colour as rgba8, 0)
//
// Boxes keep the inverse of their world matrix because both the culling (tile AABB into box
// space) and the shading (decal projection) need world-to-box.
import { ENTITY_KIND, ENTITY_WORDS, type EntityCounts, type Mat4, type Vec3 } from './api.ts';
import { GpuCullingError } from './errors.ts';
import { allFinite, invert } from './math.ts';

/** A point light to add to an {@link EntityList}. */
export interface PointLightInput {
  /** World position. */
  position: Vec3;
  /** Distance at which the light's influence ends. */
  range: number;
  /** Linear RGB. */
  color: Vec3;
  /** Multiplies `color` (default 1). */
  intensity?: number;
  /** Any u32 your shading wants (a shadow map index, a profile id). */
  userData?: number;
}

/** A spot light to add to an {@link EntityList}: a point light limited to a cone. */
export interface SpotLightInput extends PointLightInput {
  /** World direction the cone points along (normalised on the way in; must not be zero). */
  direction: Vec3;
  /** Half-angle of the cone in radians, in (0, pi/2). The lit volume is the cone's sector of the range sphere. */
  outerAngle: number;
  /** Half-angle where the falloff starts (default: outerAngle * 0.8). */
  innerAngle?: number;
}

/** A decal or an environment probe to add to an {@link EntityList}: an oriented box. */
export interface BoxInput {
  /** World matrix of the box: it maps the cube [-1, 1]^3 onto the decal's or probe's volume. Must be affine and not flat. */
  matrix: Mat4;
  /** Linear RGBA in 0..1: a decal's tint and opacity, a probe's ambient colour and blend weight. */
  color?: readonly [number, number, number, number];
  /** Any u32 your shading wants (a texture atlas slot, a cubemap index). */
  userData?: number;
}

interface KindStore {
  floats: Float32Array;
  words: Uint32Array;
  count: number;
}

function newStore(capacity: number): KindStore {
  const floats = new Float32Array(capacity * ENTITY_WORDS);
  return { floats, words: new Uint32Array(floats.buffer), count: 0 };
}

/** Appends room for one entity and returns its word offset. */
function grow(store: KindStore): number {
  if ((store.count + 1) * ENTITY_WORDS > store.floats.length) {
    const floats = new Float32Array(Math.max(16, store.count * 2) * ENTITY_WORDS);
    floats.set(store.floats);
    store.floats = floats;
    store.words = new Uint32Array(floats.buffer);
  }
  return store.count++ * ENTITY_WORDS;
}

function requireVec3(name: string, v: Vec3): void {
  // Checked at run time too: JavaScript callers may pass any array.
  if ((v as readonly number[]).length !== 3 || !allFinite(v)) throw new GpuCullingError(`${name} must be three finite numbers, got [${Array.from(v).join(', ')}].`);
}

function requireUserData(value: number | undefined): number {
  const data = value ?? 0;
  if (!Number.isInteger(data) || data < 0 || data > 0xffffffff) throw new GpuCullingError(`userData must be a u32, got ${data}.`);
  return data;
}

function unorm8(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 255);
}

/** The host-side list of entities to cull (decals, probes, point and spot lights), packed into the GPU entity array the culler uploads. */
export class EntityList {
  readonly #decals = newStore(16);
  readonly #probes = newStore(16);
  readonly #lights = newStore(64);

  /** How many of each kind the list holds. */
  get counts(): EntityCounts {
    return { decals: this.#decals.count, probes: this.#probes.count, lights: this.#lights.count };
  }

  /** All entities. */
  get count(): number {
    return this.#decals.count + this.#probes.count + this.#lights.count;
  }

  /** Index in the GPU entity array of light `light` (what the tile sets hold). */
  lightEntityIndex(light: number): number {
    return this.#decals.count + this.#probes.count + light;
  }

  /** Index in the GPU entity array of probe `probe`. */
  probeEntityIndex(probe: number): number {
    return this.#decals.count + probe;
  }

  /** Adds a point light; returns its index among the lights. */
  addPointLight(light: PointLightInput): number {
    this.#checkLight(light);
    const o = grow(this.#lights);
    this.#writeLight(o, light, ENTITY_KIND.pointLight, [0, 0, 0], -1, -1);
    return this.#lights.count - 1;
  }

  /** Adds a spot light; returns its index among the lights. */
  addSpotLight(light: SpotLightInput): number {
    this.#checkLight(light);
    requireVec3('direction', light.direction);
    const [dx, dy, dz] = light.direction;
    const length = Math.hypot(dx, dy, dz);
    if (length === 0) throw new GpuCullingError('direction of a spot light must not be zero.');
    const outer = light.outerAngle;
    if (!(outer > 0 && outer < Math.PI / 2)) throw new GpuCullingError(`outerAngle must be in (0, pi/2) radians, got ${outer}.`);
    const inner = light.innerAngle ?? outer * 0.8;
    if (!(inner >= 0 && inner <= outer)) throw new GpuCullingError(`innerAngle must be in [0, outerAngle], got ${inner}.`);
    const o = grow(this.#lights);
    this.#writeLight(o, light, ENTITY_KIND.spotLight, [dx / length, dy / length, dz / length], Math.cos(outer), Math.cos(inner));
    return this.#lights.count - 1;
  }

  /** Adds a decal box; returns its index among the decals (and in the entity array). */
  addDecal(decal: BoxInput): number {
    return this.#addBox(this.#decals, decal, ENTITY_KIND.decal);
  }

  /** Adds an environment probe box; returns its index among the probes. */
  addProbe(probe: BoxInput): number {
    return this.#addBox(this.#probes, probe, ENTITY_KIND.probe);
  }

  /** Moves light `light` without rebuilding the list (the fast path for animated lights). */
  setLightPosition(light: number, x: number, y: number, z: number): void {
    if (!Number.isInteger(light) || light < 0 || light >= this.#lights.count) throw new GpuCullingError(`light ${light} does not exist (there are ${this.#lights.count}).`);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new GpuCullingError(`light position must be finite, got (${x}, ${y}, ${z}).`);
    const o = light * ENTITY_WORDS;
    this.#lights.floats[o] = x;
    this.#lights.floats[o + 1] = y;
    this.#lights.floats[o + 2] = z;
  }

  /**
   * Puts the lights in Morton (Z-curve) order of their positions, so that lights near each
   * other get neighbouring indices: a tile's flat bits then fill few buckets, which makes the
   * shading walk cheaper. Returns the order: new light k is the light that was `order[k]`, so
   * you can reorder data of your own that follows the lights.
   */
  sortLightsSpatially(): Uint32Array {
    const { floats, count } = this.#lights;
    const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < count; i++) {
      for (let a = 0; a < 3; a++) {
        const v = floats[i * ENTITY_WORDS + a]!;
        if (v < low[a]!) low[a] = v;
        if (v > high[a]!) high[a] = v;
      }
    }
    const codes = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      let code = 0;
      const q = [0, 1, 2].map((a) => Math.min(1023, Math.floor(((floats[i * ENTITY_WORDS + a]! - low[a]!) / (high[a]! - low[a]! || 1)) * 1024)));
      for (let bit = 9; bit >= 0; bit--) for (let a = 0; a < 3; a++) code = code * 2 + ((q[a]! >> bit) & 1);
      codes[i] = code;
    }
    const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => codes[a]! - codes[b]!);
    this.reorderLights(order);
    return order;
  }

  /** Reorders the lights: new light k is the light that was `order[k]` (a permutation of 0..lights-1). */
  reorderLights(order: ArrayLike<number>): void {
    const count = this.#lights.count;
    if (order.length !== count) throw new GpuCullingError(`order must hold ${count} light indices, got ${order.length}.`);
    const seen = new Uint8Array(count);
    for (let k = 0; k < count; k++) {
      const i = order[k]!;
      if (!Number.isInteger(i) || i < 0 || i >= count || seen[i]) throw new GpuCullingError(`order must be a permutation of 0..${count - 1}; ${i} at position ${k} is out of range or repeated.`);
      seen[i] = 1;
    }
    const source = this.#lights.words.slice(0, count * ENTITY_WORDS);
    for (let k = 0; k < count; k++) this.#lights.words.set(source.subarray(order[k]! * ENTITY_WORDS, (order[k]! + 1) * ENTITY_WORDS), k * ENTITY_WORDS);
  }

  /** Forgets every entity (keeps the memory). */
  clear(): void {
    this.#decals.count = 0;
    this.#probes.count = 0;
    this.#lights.count = 0;
  }

  /** The GPU entity array: decals, probes, lights, 16 words each, into `out` (or a new array). */
  pack(out = new Uint32Array(this.count * ENTITY_WORDS)): Uint32Array {
    if (out.length < this.count * ENTITY_WORDS) throw new GpuCullingError(`pack needs room for ${this.count * ENTITY_WORDS} words, got ${out.length}.`);
    let at = 0;
    for (const store of [this.#decals, this.#probes, this.#lights]) {
      const words = store.count * ENTITY_WORDS;
      out.set(store.words.subarray(0, words), at);
      at += words;
    }
    return out;
  }

  #checkLight(light: PointLightInput): void {
    requireVec3('position', light.position);
    requireVec3('color', light.color);
    if (!(light.range > 0) || !Number.isFinite(light.range)) throw new GpuCullingError(`range must be a positive finite number, got ${light.range}.`);
    const intensity = light.intensity ?? 1;
    if (!(intensity >= 0) || !Number.isFinite(intensity)) throw new GpuCullingError(`intensity must be a non-negative finite number, got ${intensity}.`);
    requireUserData(light.userData);
  }

  #writeLight(o: number, light: PointLightInput, kind: number, direction: Vec3, cosOuter: number, cosInner: number): void {
    const { floats, words } = this.#lights;
    const intensity = light.intensity ?? 1;
    floats.set([...light.position, light.range, ...direction, cosOuter], o);
    floats.set([light.color[0] * intensity, light.color[1] * intensity, light.color[2] * intensity, cosInner], o + 8);
    words.set([kind, requireUserData(light.userData), 0, 0], o + 12);
  }

  #addBox(store: KindStore, box: BoxInput, kind: number): number {
    const m = box.matrix;
    if (m.length < 16 || !allFinite(m, 16)) throw new GpuCullingError('matrix must be 16 finite numbers (a column-major 4x4 world matrix of the box).');
    if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) throw new GpuCullingError('matrix of a box must be affine (last row 0, 0, 0, 1).');
    const scale = Math.max(Math.hypot(m[0]!, m[1]!, m[2]!), Math.hypot(m[4]!, m[5]!, m[6]!), Math.hypot(m[8]!, m[9]!, m[10]!));
    const inverse = invert(m);
    // A box flatter than a millionth of its largest side is a zero-size box.
    const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) + m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
    if (!inverse || scale === 0 || Math.abs(det) < 1e-6 * scale ** 3) {
      throw new GpuCullingError('matrix of a box must have a non-zero size along every axis (it maps [-1, 1]^3 onto the box).');
    }
    const color = box.color ?? [1, 1, 1, 1];
    if ((color as readonly number[]).length !== 4 || !allFinite(color)) throw new GpuCullingError('color of a box must be four finite numbers (RGBA).');
    const userData = requireUserData(box.userData);
    const o = grow(store);
    // Rows of world-to-box (row r, column c of a column-major matrix is inverse[c * 4 + r]).
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 4; c++) store.floats[o + r * 4 + c] = inverse[c * 4 + r]!;
    }
    const rgba = (unorm8(color[0]) | (unorm8(color[1]) << 8) | (unorm8(color[2]) << 16) | (unorm8(color[3]) << 24)) >>> 0;
    store.words.set([kind, userData, rgba, 0], o + 12);
    return store.count - 1;
  }
}
