// Many labels of @cuttle/gui distance-field text as one three Mesh: one instance of a unit quad
// per glyph, with the glyph's data in flat typed arrays (instanced attributes), laid out by
// @cuttle/gui's layoutText (kerning, line breaks, alignment). Each label owns a run of glyph
// slots; updating a label rewrites only its run, and only the slots written since the last frame
// are uploaded. Removed runs become holes of zero-area quads, reused by labels of the same
// length (as @cuttle/gui's free-list batches), and the runs are compacted once holes pass half.
import { GuiFont, layoutText, QUAD_FLOATS, TextLayout, type GuiImage, type TextAlign } from '@cuttle/gui';
import { BufferAttribute, InstancedBufferAttribute, InstancedBufferGeometry, Mesh, type DataArrayTexture, type MeshBasicNodeMaterial } from 'three/webgpu';
import { ThreeError } from './errors.ts';
import { createTextMaterial, TEXT_ATTRIBUTES, textAtlasTexture, checkOutline, type TextMaterialOptions, type TextMaterialUniforms, type TextOutline } from './text-material.ts';

/** Where the anchor sits vertically: the block's top, the first line's baseline, the block's middle or bottom. */
export type TextAnchorY = 'top' | 'baseline' | 'middle' | 'bottom';

/** One label of {@link TextLabels}: a block of text placed in the mesh's local space. */
export interface TextLabel {
  /** The text, laid out by `@cuttle/gui`'s `layoutText` (kerning, line breaks, wrapping at `maxWidth`). */
  text: string;
  /** The anchor, in the mesh's local space. */
  position: { readonly x: number; readonly y: number; readonly z: number };
  /** Em size in the mesh's local units. */
  size: number;
  /** 0xRRGGBB, sRGB (default white). */
  color?: number;
  /** 0 to 1 (default 1). */
  opacity?: number;
  /** Horizontal alignment, and where the anchor sits: the block's left, centre or right (default left). */
  align?: TextAlign;
  /** Where the anchor sits vertically (default `'baseline'`: the first line's baseline). */
  anchorY?: TextAnchorY;
  /** Wrap lines longer than this (local units). */
  maxWidth?: number;
  /** Line spacing as a multiple of the font's line height (default 1). */
  lineSpacing?: number;
  /** Face the camera (default false); the label keeps its world size. */
  billboard?: boolean;
  /**
   * Orientation of a non-billboard label, a unit quaternion (default identity: the text reads
   * along +x with +y up, facing +z).
   */
  rotation?: { readonly x: number; readonly y: number; readonly z: number; readonly w: number };
}

/** A label of a TextLabels: its slot times 65536 plus a generation, so a removed label's id stays invalid. */
export type TextLabelId = number;

/** Options of {@link TextLabels}' constructor: the material's, and the initial capacity. */
export interface TextLabelsOptions extends TextMaterialOptions {
  /** Glyphs to make room for at first (default 1024); the arrays double when full. */
  capacity?: number;
}

/** What one glyph costs: anchor, rect (float32 x4 each), uv, rotation (16-bit x4 each), colour (8-bit x4). */
export const TEXT_GLYPH_BYTES = 16 + 16 + 8 + 8 + 4;

const ALIGNS: readonly string[] = ['left', 'center', 'right'];
const ANCHORS: readonly string[] = ['top', 'baseline', 'middle', 'bottom'];
const GENERATIONS = 0x10000;

/** One quad, corners (0,0) (1,0) (0,1) (1,1): each glyph instance places it. */
function quadGeometry(capacity: number): InstancedBufferGeometry {
  const geometry = new InstancedBufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]), 3));
  geometry.setIndex([0, 1, 2, 2, 1, 3]);
  geometry.setAttribute(TEXT_ATTRIBUTES.anchor, new InstancedBufferAttribute(new Float32Array(capacity * 4), 4));
  geometry.setAttribute(TEXT_ATTRIBUTES.rect, new InstancedBufferAttribute(new Float32Array(capacity * 4), 4));
  geometry.setAttribute(TEXT_ATTRIBUTES.uv, new InstancedBufferAttribute(new Uint16Array(capacity * 4), 4, true));
  geometry.setAttribute(TEXT_ATTRIBUTES.rotation, new InstancedBufferAttribute(new Int16Array(capacity * 4), 4, true));
  geometry.setAttribute(TEXT_ATTRIBUTES.color, new InstancedBufferAttribute(new Uint8Array(capacity * 4), 4, true));
  geometry.instanceCount = 0;
  return geometry;
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Throws ThreeError naming the first bad field of `label`. */
function checkLabel(label: TextLabel): void {
  if (typeof label !== 'object') throw new ThreeError(`a label must be an object, got ${String(label)}.`);
  if (typeof label.text !== 'string') throw new ThreeError(`label.text must be a string, got ${typeof label.text}.`);
  const p = label.position as Partial<TextLabel['position']> | undefined;
  if (!p || !finite(p.x) || !finite(p.y) || !finite(p.z)) throw new ThreeError(`label.position must have finite x, y and z, got ${JSON.stringify(p)}.`);
  if (!(finite(label.size) && label.size > 0)) throw new ThreeError(`label.size must be a positive number, got ${label.size}.`);
  if (label.color !== undefined && !(Number.isInteger(label.color) && label.color >= 0 && label.color <= 0xffffff)) throw new ThreeError(`label.color must be 0xRRGGBB, got ${label.color}.`);
  if (label.opacity !== undefined && !(label.opacity >= 0 && label.opacity <= 1)) throw new ThreeError(`label.opacity must be between 0 and 1, got ${label.opacity}.`);
  if (label.align !== undefined && !ALIGNS.includes(label.align)) throw new ThreeError(`label.align must be 'left', 'center' or 'right', got ${JSON.stringify(label.align)}.`);
  if (label.anchorY !== undefined && !ANCHORS.includes(label.anchorY)) throw new ThreeError(`label.anchorY must be 'top', 'baseline', 'middle' or 'bottom', got ${JSON.stringify(label.anchorY)}.`);
  if (label.maxWidth !== undefined && !(label.maxWidth > 0)) throw new ThreeError(`label.maxWidth must be a positive number, got ${label.maxWidth}.`);
  if (label.lineSpacing !== undefined && !(finite(label.lineSpacing) && label.lineSpacing > 0)) throw new ThreeError(`label.lineSpacing must be a positive number, got ${label.lineSpacing}.`);
  const r = label.rotation;
  if (r !== undefined) {
    if (!finite(r.x) || !finite(r.y) || !finite(r.z) || !finite(r.w)) throw new ThreeError(`label.rotation must be a quaternion of finite x, y, z, w, got ${JSON.stringify(r)}.`);
    if (Math.abs(Math.hypot(r.x, r.y, r.z, r.w) - 1) > 1e-3) throw new ThreeError(`label.rotation must be a unit quaternion, got length ${Math.hypot(r.x, r.y, r.z, r.w)}.`);
  }
}

/**
 * Labels of distance-field text from a `@cuttle/gui` font, drawn by three in one draw call. Add it
 * to a scene like any Mesh; `addLabel`, `updateLabel` and `removeLabel` at any time: what changed is
 * uploaded before the next frame.
 */
export class TextLabels extends Mesh<InstancedBufferGeometry, MeshBasicNodeMaterial> {
  /** The font the labels are set in. */
  readonly font: GuiFont;
  /** The font's pages as one texture array (shared by the material). */
  readonly atlas: DataArrayTexture;
  /** The material's outline uniforms; or call setOutline. */
  readonly uniforms: TextMaterialUniforms;
  #capacity: number;
  /** Glyph slots in use, holes included: the instances drawn. */
  #used = 0;
  #holeGlyphs = 0;
  /** Hole starts by length. */
  readonly #holes = new Map<number, number[]>();
  // Per label slot.
  #first = new Int32Array(64);
  #length = new Int32Array(64);
  #generation = new Uint16Array(64);
  #alive = new Uint8Array(64);
  #slots = 0;
  readonly #freeSlots: number[] = [];
  #labels = 0;
  #visibleGlyphs = 0;
  // Glyph slots written since the last upload.
  #dirtyStart = Infinity;
  #dirtyEnd = 0;
  #reallocated = false;
  readonly #layout = new TextLayout();

  /** `font` must be a distance-field font (`distanceFieldFontFromTtf`, `distanceFieldFont`, or a .fnt with a distanceField block); `pages` its page images. */
  constructor(font: GuiFont, pages: readonly GuiImage[], options: TextLabelsOptions = {}) {
    if (!(font instanceof GuiFont)) throw new ThreeError('TextLabels needs a GuiFont (new GuiFont(bmfont)) from @cuttle/gui.');
    const capacity = options.capacity ?? 1024;
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new ThreeError(`capacity must be a whole number of glyphs >= 1, got ${capacity}.`);
    const atlas = textAtlasTexture(font, pages);
    const { material, uniforms } = createTextMaterial(atlas, font.spread, options);
    super(quadGeometry(capacity), material);
    this.font = font;
    this.atlas = atlas;
    this.uniforms = uniforms;
    this.#capacity = capacity;
    // The quad's bounds say nothing about where glyphs are: never cull by them.
    this.frustumCulled = false;
    this.onBeforeRender = (): void => { this.flush(); };
  }

  /** Labels held. */
  get labelCount(): number {
    return this.#labels;
  }

  /** Glyphs drawn (visible glyphs of all labels). */
  get glyphCount(): number {
    return this.#visibleGlyphs;
  }

  /** Glyph slots the arrays hold (they double when full). */
  get capacity(): number {
    return this.#capacity;
  }

  /** Bytes of GPU memory the glyph arrays (`capacity` x {@link TEXT_GLYPH_BYTES}), the atlas (one byte a texel) and the quad take. */
  get gpuBytes(): number {
    return this.#capacity * TEXT_GLYPH_BYTES + this.atlas.image.width * this.atlas.image.height * this.atlas.image.depth + 4 * 3 * 4 + 6 * 2;
  }

  /** Adds a label; returns its id. */
  addLabel(label: TextLabel): TextLabelId {
    checkLabel(label);
    const count = this.#lay(label);
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      if (this.#slots === this.#first.length) this.#growSlots();
      slot = this.#slots++;
    }
    this.#alive[slot] = 1;
    this.#generation[slot] = (this.#generation[slot]! + 1) % GENERATIONS || 1;
    this.#first[slot] = this.#allocate(count);
    this.#length[slot] = count;
    this.#labels++;
    this.#visibleGlyphs += count;
    this.#write(this.#first[slot]!, count, label);
    return slot * GENERATIONS + this.#generation[slot]!;
  }

  /** Replaces a label's text, place or style; rewrites only its glyphs. */
  updateLabel(id: TextLabelId, label: TextLabel): void {
    const slot = this.#slotOf(id, 'updateLabel');
    checkLabel(label);
    const count = this.#lay(label);
    const length = this.#length[slot]!;
    let first = this.#first[slot]!;
    if (count !== length) {
      // A run of another length: free this one and take a run that fits.
      this.#free(first, length);
      first = this.#allocate(count);
      this.#first[slot] = first;
      this.#length[slot] = count;
    }
    this.#visibleGlyphs += count - length;
    this.#write(first, count, label);
    this.#maybeCompact();
  }

  /** Removes a label; its id is no longer valid. */
  removeLabel(id: TextLabelId): void {
    const slot = this.#slotOf(id, 'removeLabel');
    this.#free(this.#first[slot]!, this.#length[slot]!);
    this.#visibleGlyphs -= this.#length[slot]!;
    this.#alive[slot] = 0;
    this.#freeSlots.push(slot);
    this.#labels--;
    this.#maybeCompact();
  }

  /** Whether `id` names a label of this mesh. */
  hasLabel(id: TextLabelId): boolean {
    const slot = Math.floor(id / GENERATIONS);
    return Number.isInteger(id) && slot >= 0 && slot < this.#slots && this.#alive[slot] === 1 && this.#generation[slot] === id % GENERATIONS;
  }

  /** The run of glyph slots (instances) a label's glyphs occupy. */
  glyphRange(id: TextLabelId): { first: number; count: number } {
    const slot = this.#slotOf(id, 'glyphRange');
    return { first: this.#first[slot]!, count: this.#length[slot]! };
  }

  /** Removes every label. */
  clearLabels(): void {
    this.#clearRange(0, this.#used);
    this.#used = 0;
    this.#holeGlyphs = 0;
    this.#holes.clear();
    this.#alive.fill(0);
    this.#freeSlots.length = 0;
    for (let s = this.#slots - 1; s >= 0; s--) this.#freeSlots.push(s);
    this.#labels = 0;
    this.#visibleGlyphs = 0;
    this.geometry.instanceCount = 0;
  }

  /** Restyles the outline of every label (no rebuild). */
  setOutline(outline: TextOutline): void {
    checkOutline(outline, this.font.spread);
    this.uniforms.outlineWidth.value = outline.width;
    this.uniforms.outlineColor.value.setHex(outline.color ?? 0x000000);
    this.uniforms.outlineOpacity.value = outline.opacity ?? (outline.width > 0 ? 1 : 0);
  }

  /**
   * Marks the glyph slots written since the last call for upload and sets the instance count;
   * three calls it before drawing the mesh. Returns the slots marked (all of them after the
   * arrays grew or were compacted).
   */
  flush(): { first: number; count: number } {
    const geometry = this.geometry;
    geometry.instanceCount = this.#used;
    if (this.#reallocated) {
      this.#reallocated = false;
      this.#dirtyStart = Infinity;
      this.#dirtyEnd = 0;
      for (const name of Object.values(TEXT_ATTRIBUTES)) {
        const attribute = geometry.getAttribute(name) as InstancedBufferAttribute;
        attribute.clearUpdateRanges();
        attribute.needsUpdate = true;
      }
      return { first: 0, count: this.#capacity };
    }
    if (this.#dirtyEnd <= this.#dirtyStart) return { first: 0, count: 0 };
    const first = this.#dirtyStart;
    const count = this.#dirtyEnd - first;
    for (const name of Object.values(TEXT_ATTRIBUTES)) {
      const attribute = geometry.getAttribute(name) as InstancedBufferAttribute;
      attribute.clearUpdateRanges();
      attribute.addUpdateRange(first * 4, count * 4);
      attribute.needsUpdate = true;
    }
    this.#dirtyStart = Infinity;
    this.#dirtyEnd = 0;
    return { first, count };
  }

  /** Frees the geometry, material and atlas (three's GPU buffers and texture for them). */
  override dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
    this.atlas.dispose();
  }

  #slotOf(id: TextLabelId, what: string): number {
    if (!this.hasLabel(id)) throw new ThreeError(`${what}: ${String(id)} is not a label of this TextLabels (removed, or from another one).`);
    return Math.floor(id / GENERATIONS);
  }

  /** Lays the label out into this.#layout; returns its glyph count. */
  #lay(label: TextLabel): number {
    return layoutText(this.font, label.text, { size: label.size, align: label.align ?? 'left', maxWidth: label.maxWidth, lineSpacing: label.lineSpacing }, this.#layout).count;
  }

  /** Writes the laid-out glyphs of `label` into slots first..first+count. */
  #write(first: number, count: number, label: TextLabel): void {
    const layout = this.#layout;
    const quads = layout.quads;
    const scale = label.size / this.font.emSize;
    const align = label.align ?? 'left';
    const box = label.maxWidth ?? 0;
    const shiftX = box > 0 && Number.isFinite(box) ? (align === 'center' ? -box / 2 : align === 'right' ? -box : 0) : 0;
    const anchorY = label.anchorY ?? 'baseline';
    const shiftY = anchorY === 'top' ? 0 : anchorY === 'baseline' ? this.font.base * scale : anchorY === 'middle' ? layout.height / 2 : layout.height;
    const g = this.geometry;
    const anchor = (g.getAttribute(TEXT_ATTRIBUTES.anchor) as InstancedBufferAttribute).array as Float32Array;
    const rect = (g.getAttribute(TEXT_ATTRIBUTES.rect) as InstancedBufferAttribute).array as Float32Array;
    const uv = (g.getAttribute(TEXT_ATTRIBUTES.uv) as InstancedBufferAttribute).array as Uint16Array;
    const rotation = (g.getAttribute(TEXT_ATTRIBUTES.rotation) as InstancedBufferAttribute).array as Int16Array;
    const color = (g.getAttribute(TEXT_ATTRIBUTES.color) as InstancedBufferAttribute).array as Uint8Array;
    const { x, y, z } = label.position;
    const r = label.rotation;
    const rx = r ? Math.round(r.x * 32767) : 0;
    const ry = r ? Math.round(r.y * 32767) : 0;
    const rz = r ? Math.round(r.z * 32767) : 0;
    const rw = r ? Math.round(r.w * 32767) : 32767;
    const hex = label.color ?? 0xffffff;
    const red = hex >> 16, green = (hex >> 8) & 0xff, blue = hex & 0xff;
    const alpha = Math.round((label.opacity ?? 1) * 255);
    const flag = label.billboard === true ? 1 : 0;
    for (let i = 0; i < count; i++) {
      const q = i * QUAD_FLOATS;
      const o = (first + i) * 4;
      anchor[o] = x;
      anchor[o + 1] = y;
      anchor[o + 2] = z;
      anchor[o + 3] = quads[q + 8]! * 2 + flag;
      rect[o] = quads[q]! + shiftX;
      rect[o + 1] = shiftY - quads[q + 3]!;
      rect[o + 2] = quads[q + 2]! + shiftX;
      rect[o + 3] = shiftY - quads[q + 1]!;
      uv[o] = Math.round(quads[q + 4]! * 65535);
      uv[o + 1] = Math.round(quads[q + 5]! * 65535);
      uv[o + 2] = Math.round(quads[q + 6]! * 65535);
      uv[o + 3] = Math.round(quads[q + 7]! * 65535);
      rotation[o] = rx;
      rotation[o + 1] = ry;
      rotation[o + 2] = rz;
      rotation[o + 3] = rw;
      color[o] = red;
      color[o + 1] = green;
      color[o + 2] = blue;
      color[o + 3] = alpha;
    }
    this.#touch(first, first + count);
  }

  #touch(start: number, end: number): void {
    if (end <= start) return;
    if (start < this.#dirtyStart) this.#dirtyStart = start;
    if (end > this.#dirtyEnd) this.#dirtyEnd = end;
  }

  /** A run of `count` glyph slots: a hole of that length, else the end (growing the arrays). */
  #allocate(count: number): number {
    if (count === 0) return this.#used;
    const holes = this.#holes.get(count);
    const hole = holes?.pop();
    if (hole !== undefined) {
      this.#holeGlyphs -= count;
      return hole;
    }
    if (this.#used + count > this.#capacity) this.#grow(this.#used + count);
    const first = this.#used;
    this.#used += count;
    return first;
  }

  #free(first: number, count: number): void {
    if (count === 0) return;
    this.#clearRange(first, first + count);
    if (first + count === this.#used) {
      this.#used = first;
      return;
    }
    let holes = this.#holes.get(count);
    if (!holes) this.#holes.set(count, (holes = []));
    holes.push(first);
    this.#holeGlyphs += count;
  }

  /** Zero-area quads draw nothing. */
  #clearRange(start: number, end: number): void {
    const rect = (this.geometry.getAttribute(TEXT_ATTRIBUTES.rect) as InstancedBufferAttribute).array as Float32Array;
    rect.fill(0, start * 4, end * 4);
    this.#touch(start, end);
  }

  #grow(needed: number): void {
    let capacity = this.#capacity * 2;
    while (capacity < needed) capacity *= 2;
    const old = this.geometry;
    const next = quadGeometry(capacity);
    for (const name of Object.values(TEXT_ATTRIBUTES)) {
      (next.getAttribute(name) as InstancedBufferAttribute).array.set((old.getAttribute(name) as InstancedBufferAttribute).array);
    }
    next.instanceCount = old.instanceCount;
    this.geometry = next;
    // three frees the old GPU buffers when the geometry is disposed.
    old.dispose();
    this.#capacity = capacity;
    this.#reallocated = true;
  }

  /** Moves every run down over the holes, in order, once holes pass half the slots in use. */
  #maybeCompact(): void {
    if (this.#holeGlyphs === 0 || this.#holeGlyphs * 2 < this.#used) return;
    const order: number[] = [];
    for (let s = 0; s < this.#slots; s++) if (this.#alive[s] === 1) order.push(s);
    order.sort((a, b) => this.#first[a]! - this.#first[b]!);
    const arrays = Object.values(TEXT_ATTRIBUTES).map((name) => (this.geometry.getAttribute(name) as InstancedBufferAttribute).array);
    let cursor = 0;
    for (const s of order) {
      const first = this.#first[s]!;
      const length = this.#length[s]!;
      if (first !== cursor && length > 0) for (const array of arrays) array.copyWithin(cursor * 4, first * 4, (first + length) * 4);
      this.#first[s] = cursor;
      cursor += length;
    }
    const rect = (this.geometry.getAttribute(TEXT_ATTRIBUTES.rect) as InstancedBufferAttribute).array as Float32Array;
    rect.fill(0, cursor * 4, this.#used * 4);
    this.#touch(0, this.#used);
    this.#used = cursor;
    this.#holes.clear();
    this.#holeGlyphs = 0;
  }

  #growSlots(): void {
    const n = this.#first.length * 2;
    const grow = <T extends Int32Array | Uint16Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.#first = grow(this.#first, (k) => new Int32Array(k));
    this.#length = grow(this.#length, (k) => new Int32Array(k));
    this.#generation = grow(this.#generation, (k) => new Uint16Array(k));
    this.#alive = grow(this.#alive, (k) => new Uint8Array(k));
  }
}
