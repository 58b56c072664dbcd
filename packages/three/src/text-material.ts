// The distance-field text material for TextLabels, as a three node material: each glyph is one
// instance of a unit quad, placed in the vertex stage from per-glyph attributes (its label's
// anchor and rotation, or the camera's axes for billboards), and the fragment stage turns the
// sampled distance into coverage over one screen pixel with fwidth, as @cuttle/gui's gui.wgsl
// does. Everything per glyph comes from attributes, so 10,000 labels are one draw call.
import type { GuiFont, GuiImage } from '@cuttle/gui';
import { coverageOf } from '@cuttle/gui';
import { clamp, cross, float, fwidth, max, mix, modelWorldMatrixInverse, positionGeometry, select, sRGBTransferEOTF, texture, uniform, varying, vec3, vec4, attribute, cameraWorldMatrix } from 'three/tsl';
import { Color, DataArrayTexture, DoubleSide, LinearFilter, MeshBasicNodeMaterial, RedFormat, UnsignedByteType, type Node, type Side } from 'three/webgpu';
import { ThreeError } from './errors.ts';

/** Names of the per-glyph instanced attributes TextLabels writes and the material reads. */
export const TEXT_ATTRIBUTES = {
  /** x, y, z of the label's anchor; w = page * 2 + (billboard ? 1 : 0). Float32 x4. */
  anchor: 'textAnchor',
  /** The glyph's quad in the label's plane: left, bottom, right, top. Float32 x4. */
  rect: 'textRect',
  /** The glyph's page rectangle: u0, v0 (top), u1, v1 (bottom). Unorm16 x4. */
  uv: 'textUv',
  /** The label's rotation quaternion x, y, z, w. Snorm16 x4. */
  rotation: 'textRotation',
  /** The label's colour, sRGB, and opacity. Unorm8 x4. */
  color: 'textColor',
} as const;

/** An outline drawn around every glyph, from the font's distance field. */
export interface TextOutline {
  /** Width in texels of the font's pages, at most the font's spread. */
  width: number;
  /** 0xRRGGBB, sRGB (default black). */
  color?: number;
  /** 0 to 1 (default 1). */
  opacity?: number;
}

/** Options of the material of {@link TextLabels}. */
export interface TextMaterialOptions {
  /** An outline around every glyph of the mesh (default none). */
  outline?: TextOutline;
  /** Which faces draw (default DoubleSide: a label reads mirrored from behind, as a sign does). */
  side?: Side;
}

/** The uniforms a TextLabels material exposes, to restyle without rebuilding the shader. */
export interface TextMaterialUniforms {
  /** Outline width in texels of the font's pages (0: none). */
  outlineWidth: { value: number };
  /** Outline colour (linear, as three's `Color` holds it). */
  outlineColor: { value: Color };
  /** Outline opacity, 0 to 1. */
  outlineOpacity: { value: number };
}

/** Checks an outline against the font; throws ThreeError naming the bad value. */
export function checkOutline(outline: TextOutline, spread: number): void {
  if (!(outline.width >= 0 && outline.width <= spread)) throw new ThreeError(`outline.width must be between 0 and the font's spread (${spread} texels), got ${outline.width}.`);
  if (outline.color !== undefined && !(Number.isInteger(outline.color) && outline.color >= 0 && outline.color <= 0xffffff)) throw new ThreeError(`outline.color must be 0xRRGGBB, got ${outline.color}.`);
  if (outline.opacity !== undefined && !(outline.opacity >= 0 && outline.opacity <= 1)) throw new ThreeError(`outline.opacity must be between 0 and 1, got ${outline.opacity}.`);
}

/**
 * The font's distance-field pages as one texture array (r8unorm, linear filtering, no mipmaps):
 * what the material samples. Pages must be the font's page size; RGBA pages give their
 * coverage channel (alpha, or the brightest colour where alpha is constant).
 */
export function textAtlasTexture(font: GuiFont, pages: readonly GuiImage[]): DataArrayTexture {
  if (font.spread <= 0) throw new ThreeError('the font has no distance field (no distanceField block in its .fnt): make it with distanceFieldFont, distanceFieldFontFromTtf or cuttle-font first.');
  if (pages.length !== font.pageCount) throw new ThreeError(`the font has ${font.pageCount} page(s) but ${pages.length} page image(s) were given.`);
  const layer = font.pageWidth * font.pageHeight;
  const data = new Uint8Array(layer * pages.length);
  pages.forEach((page, i) => {
    if (page.width !== font.pageWidth || page.height !== font.pageHeight) throw new ThreeError(`page ${i} is ${page.width}x${page.height}, the font's pages are ${font.pageWidth}x${font.pageHeight}.`);
    if (page.data.length !== page.width * page.height * page.channels) throw new ThreeError(`page ${i} holds ${page.data.length} bytes, ${page.width}x${page.height}x${page.channels} needs ${page.width * page.height * page.channels}.`);
    data.set(coverageOf(page), i * layer);
  });
  const atlas = new DataArrayTexture(data, font.pageWidth, font.pageHeight, pages.length);
  atlas.format = RedFormat;
  atlas.type = UnsignedByteType;
  atlas.minFilter = LinearFilter;
  atlas.magFilter = LinearFilter;
  atlas.generateMipmaps = false;
  atlas.unpackAlignment = 1;
  atlas.needsUpdate = true;
  return atlas;
}

/** The node material that draws TextLabels' glyph instances from `atlas` (a font of `spread` texels). */
export function createTextMaterial(atlas: DataArrayTexture, spread: number, options: TextMaterialOptions = {}): { material: MeshBasicNodeMaterial; uniforms: TextMaterialUniforms } {
  const outline = options.outline ?? { width: 0 };
  checkOutline(outline, spread);
  const outlineWidth = uniform(outline.width);
  const outlineColor = uniform(new Color(outline.color ?? 0x000000));
  const outlineOpacity = uniform(outline.opacity ?? (outline.width > 0 ? 1 : 0));

  const corner = positionGeometry.xy;
  const anchor = attribute<'vec4'>(TEXT_ATTRIBUTES.anchor, 'vec4');
  const rect = attribute<'vec4'>(TEXT_ATTRIBUTES.rect, 'vec4');
  const uvRect = attribute<'vec4'>(TEXT_ATTRIBUTES.uv, 'vec4');
  const rotation = attribute<'vec4'>(TEXT_ATTRIBUTES.rotation, 'vec4');
  const color = attribute<'vec4'>(TEXT_ATTRIBUTES.color, 'vec4');

  const planar = mix(rect.xy, rect.zw, corner);
  const flat = vec3(planar, 0);
  // q * v * q^-1 for a unit quaternion, the two-cross-product form.
  const twice = cross(rotation.xyz, flat).mul(2);
  const turned = flat.add(twice.mul(rotation.w)).add(cross(rotation.xyz, twice));
  // Billboards: the planar offset along the camera's right and up, taken into the mesh's space.
  const facing = modelWorldMatrixInverse.mul(vec4(cameraWorldMatrix.mul(vec4(planar, 0, 0)).xyz, 0)).xyz;
  const billboard = anchor.w.mod(2).greaterThan(0.5);

  const material = new MeshBasicNodeMaterial({ transparent: true, depthWrite: false, side: options.side ?? DoubleSide });
  // Flat quads: one pass even double-sided (three splits transparent DoubleSide into two).
  material.forceSinglePass = true;
  material.positionNode = anchor.xyz.add(select(billboard, facing, turned));

  const u = uvRect.x.add(uvRect.z.sub(uvRect.x).mul(corner.x));
  const v = uvRect.w.add(uvRect.y.sub(uvRect.w).mul(corner.y));
  const uv = varying(vec3(u, v, anchor.w.mul(0.5).floor()), 'vTextUv');
  const linear = sRGBTransferEOTF(color.rgb) as Node<'vec3'>;
  const tint = varying(vec4(linear, color.a), 'vTextColor');
  const field = texture(atlas, uv.xy).depth(uv.z.add(0.5).toInt()).r;
  // Signed distance in texels, positive inside; fwidth gives texels per screen pixel, so the
  // edge is antialiased over one pixel at any scale.
  const distance = field.sub(0.5).mul(2 * spread);
  const pixel = max(fwidth(distance), float(1e-4));
  const fill = clamp(distance.div(pixel).add(0.5), 0, 1).mul(tint.a);
  const ring = clamp(distance.add(outlineWidth).div(pixel).add(0.5), 0, 1).mul(outlineOpacity);
  const under = ring.mul(fill.oneMinus());
  const alpha = fill.add(under);
  material.colorNode = vec4(tint.rgb.mul(fill).add(outlineColor.mul(under)).div(max(alpha, float(1e-6))), alpha);
  material.name = 'cuttle.text';
  return { material, uniforms: { outlineWidth, outlineColor, outlineOpacity } };
}
