// The AngelCode BMFont document, field for field as the three file formats store it (flags
// stay 0/1 numbers, as in the files). This is the file-boundary form; layout uses GuiFont.

/** The `info` block of a BMFont: how the font was drawn. */
export interface BMFontInfo {
  /** Name of the TrueType font the glyphs were drawn from. */
  face: string;
  /** Font size the glyphs were drawn at, in pixels (negative in some files: matched to character height rather than cell height). */
  size: number;
  /** 1 when drawn bold, else 0. */
  bold: number;
  /** 1 when drawn italic, else 0. */
  italic: number;
  /** OEM charset name when `unicode` is 0 (char ids are then charset indices); empty otherwise. */
  charset: string;
  /** 1 when char ids are Unicode code points, else 0. */
  unicode: number;
  /** Font height stretch in percent (100: none). */
  stretchH: number;
  /** 1 when smoothing was on, else 0. */
  smooth: number;
  /** Supersampling level used (1: none). */
  aa: number;
  /** up, right, down, left */
  padding: [number, number, number, number];
  /** horizontal, vertical */
  spacing: [number, number];
  /** Outline thickness in pixels (0: none). */
  outline: number;
}

/** The `common` block of a BMFont: line metrics and page layout shared by every glyph. */
export interface BMFontCommon {
  /** Distance between the tops of two lines of text, in pixels. */
  lineHeight: number;
  /** Distance from the top of a line to the baseline, in pixels. */
  base: number;
  /** Width of each page image, in pixels. */
  scaleW: number;
  /** Height of each page image, in pixels. */
  scaleH: number;
  /** Number of page images. */
  pages: number;
  /** 1 when monochrome glyphs are packed into separate channels of the pages, else 0. */
  packed: number;
  /** What the alpha channel holds: 0 glyph, 1 outline, 2 glyph and outline, 3 zero, 4 one. */
  alphaChnl: number;
  /** What the red channel holds (codes as for `alphaChnl`). */
  redChnl: number;
  /** What the green channel holds (codes as for `alphaChnl`). */
  greenChnl: number;
  /** What the blue channel holds (codes as for `alphaChnl`). */
  blueChnl: number;
}

/** One glyph of a BMFont: its rectangle on a page and how to place it. All figures in pixels of the page. */
export interface BMFontChar {
  /** Unicode code point (or a charset index when info.unicode is 0). */
  id: number;
  /** Left edge of the glyph's rectangle on its page. */
  x: number;
  /** Top edge of the glyph's rectangle on its page. */
  y: number;
  /** Width of the glyph's rectangle (0 for a glyph with no ink, such as a space). */
  width: number;
  /** Height of the glyph's rectangle. */
  height: number;
  /** Horizontal offset from the pen position to the rectangle's left edge when drawn. */
  xoffset: number;
  /** Vertical offset from the top of the line to the rectangle's top edge when drawn. */
  yoffset: number;
  /** How far the pen moves right after this glyph. */
  xadvance: number;
  /** Page image the glyph is on (index into `BMFont.pages`). */
  page: number;
  /** Channels holding the glyph: a bit mask, 1 blue, 2 green, 4 red, 8 alpha, 15 all (default 15). */
  chnl: number;
}

/** A kerning pair: extra horizontal advance between two glyphs. */
export interface BMFontKerning {
  /** Char id of the left glyph. */
  first: number;
  /** Char id of the right glyph. */
  second: number;
  /** Pixels added to the pen advance when `second` follows `first` (negative moves closer). */
  amount: number;
}

/** msdf-bmfont-xml's extension block, written by the distance-field tool. */
export interface BMFontDistanceField {
  /** Kind of distance field, e.g. `'sdf'` (what the distance-field tool writes, and the default when the attribute is missing), `'psdf'` or `'msdf'`. */
  fieldType: string;
  /** Spread on each side of the edge, in pixels of the page. */
  distanceRange: number;
}

/**
 * An AngelCode BMFont document, field for field as the text, XML and binary `.fnt` formats store it (flags stay 0/1 numbers). This is the file-boundary form; layout uses {@link GuiFont}.
 */
export interface BMFont {
  /** How the font was drawn. */
  info: BMFontInfo;
  /** Line metrics and page layout. */
  common: BMFontCommon;
  /** Page image file names, by page id. */
  pages: string[];
  /** Every glyph, in file order. */
  chars: BMFontChar[];
  /** Kerning pairs, in file order (empty when the font has none). */
  kernings: BMFontKerning[];
  /** The distance-field block, present in fonts made by the distance-field tool (or msdf-bmfont-xml). */
  distanceField?: BMFontDistanceField;
}

/** The three AngelCode `.fnt` encodings: text, XML and binary (version 3). */
export type BMFontFormat = 'text' | 'xml' | 'binary';

/** An 8-bit image: 1 channel (grey) or 4 (RGBA), rows top to bottom, no padding. */
export interface GuiImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Bytes per pixel: 1 (grey) or 4 (RGBA). */
  channels: 1 | 4;
  /** The pixels, `width * height * channels` bytes, rows top to bottom. */
  data: Uint8Array;
}

/** Image file formats read and written: PNG and TGA (uncompressed or RLE). */
export type ImageFormat = 'png' | 'tga';
