// What an object kind writes into: the batch key and the quads of one object, staged in a
// reusable typed array before the Gui places them in their batch. Kinds never see batches.
import { GuiError } from './errors.ts';
import { packClipPage, packColor, packUv, QUAD_WORDS } from './vertex-format.ts';

/**
 * What an object kind writes into: the batch key and the quads of one object, staged in a reusable buffer before the Gui places them in their batch. Kinds never see batches.
 */
export class GuiEmitter {
  /** The staged quads, `QUAD_WORDS` words each (grows as needed). */
  words = new Uint32Array(QUAD_WORDS * 64);
  /** The same buffer as `words`, as floats. */
  floats = new Float32Array(this.words.buffer);
  /** Quads staged so far for the current object. */
  quads = 0;
  /** Layer set by `key` (-1 until it is called). */
  layer = -1;
  /** Material set by `key` (-1 until it is called). */
  material = -1;
  /** Clip rectangle index stamped on the quads that follow (0: no clip). */
  clipIndex = 0;

  /** Starts a new object: no quads, no key, and `clip` (a clip rectangle index, 0 for none) stamped on the quads that follow. */
  reset(clip: number): void {
    this.quads = 0;
    this.layer = -1;
    this.material = -1;
    this.clipIndex = clip;
  }

  /** The object's batch key. Layers draw in increasing order; materials come from a GuiRenderer. */
  key(layer: number, material: number): void {
    if (!Number.isInteger(layer) || layer < 0 || layer > 0xffff) throw new GuiError(`layer must be an integer 0..65535, got ${layer}.`);
    if (!Number.isInteger(material) || material < 0 || material > 0xffff) throw new GuiError(`material must be an integer id 0..65535, got ${material}.`);
    this.layer = layer;
    this.material = material;
  }

  /** Room for `more` quads; returns the word offset of the first. */
  reserve(more: number): number {
    const needed = (this.quads + more) * QUAD_WORDS;
    if (needed > this.words.length) {
      const grown = new Uint32Array(Math.max(needed, this.words.length * 2));
      grown.set(this.words);
      this.words = grown;
      this.floats = new Float32Array(grown.buffer);
    }
    const at = this.quads * QUAD_WORDS;
    this.quads += more;
    return at;
  }

  /** An axis-aligned quad with a texture rectangle; colour as 0xRRGGBBAA. */
  rect(x0: number, y0: number, x1: number, y1: number, u0: number, v0: number, u1: number, v1: number, rgba: number, page = 0): void {
    this.rectPacked(x0, y0, x1, y1, u0, v0, u1, v1, packColor(rgba), packClipPage(this.clipIndex, page));
  }

  /** rect() with colour and clip/page already packed (hot paths pack once per object). */
  rectPacked(x0: number, y0: number, x1: number, y1: number, u0: number, v0: number, u1: number, v1: number, color: number, clipPage: number): void {
    const at = this.reserve(1);
    const w = this.words;
    const f = this.floats;
    const uv00 = packUv(u0, v0);
    const uv10 = packUv(u1, v0);
    const uv01 = packUv(u0, v1);
    const uv11 = packUv(u1, v1);
    f[at] = x0; f[at + 1] = y0; w[at + 2] = uv00; w[at + 3] = color; w[at + 4] = clipPage;
    f[at + 5] = x1; f[at + 6] = y0; w[at + 7] = uv10; w[at + 8] = color; w[at + 9] = clipPage;
    f[at + 10] = x0; f[at + 11] = y1; w[at + 12] = uv01; w[at + 13] = color; w[at + 14] = clipPage;
    f[at + 15] = x1; f[at + 16] = y1; w[at + 17] = uv11; w[at + 18] = color; w[at + 19] = clipPage;
  }

  /** Any four corners (top-left, top-right, bottom-left, bottom-right), untextured. */
  quad(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, rgba: number): void {
    const at = this.reserve(1);
    const w = this.words;
    const f = this.floats;
    const color = packColor(rgba);
    const clip = packClipPage(this.clipIndex, 0);
    const xs = [x0, x1, x2, x3];
    const ys = [y0, y1, y2, y3];
    for (let v = 0; v < 4; v++) {
      const o = at + v * 5;
      f[o] = xs[v]!;
      f[o + 1] = ys[v]!;
      w[o + 2] = 0;
      w[o + 3] = color;
      w[o + 4] = clip;
    }
  }

  /** One untextured triangle (a quad with its last vertex repeated). */
  triangle(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, rgba: number): void {
    this.quad(x0, y0, x1, y1, x2, y2, x2, y2, rgba);
  }
}
