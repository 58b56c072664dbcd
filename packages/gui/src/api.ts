// The AngelCode BMFont document, field for field as the three file formats store it (flags
// stay 0/1 numbers, as in the files). This is the file-boundary form; layout uses GuiFont.

export interface BMFontInfo {
  face: string;
  size: number;
  bold: number;
  italic: number;
  charset: string;
  unicode: number;
  stretchH: number;
  smooth: number;
  aa: number;
  /** up, right, down, left */
  padding: [number, number, number, number];
  /** horizontal, vertical */
  spacing: [number, number];
  outline: number;
}

export interface BMFontCommon {
  lineHeight: number;
  base: number;
  scaleW: number;
  scaleH: number;
  pages: number;
  packed: number;
  alphaChnl: number;
  redChnl: number;
  greenChnl: number;
  blueChnl: number;
}

export interface BMFontChar {
  /** Unicode code point (or a charset index when info.unicode is 0). */
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  xoffset: number;
  yoffset: number;
  xadvance: number;
  page: number;
  chnl: number;
}

export interface BMFontKerning {
  first: number;
  second: number;
  amount: number;
}

/** msdf-bmfont-xml's extension block, written by the distance-field tool. */
export interface BMFontDistanceField {
  fieldType: string;
  /** Spread on each side of the edge, in pixels of the page. */
  distanceRange: number;
}

export interface BMFont {
  info: BMFontInfo;
  common: BMFontCommon;
  /** Page image file names, by page id. */
  pages: string[];
  chars: BMFontChar[];
  kernings: BMFontKerning[];
  distanceField?: BMFontDistanceField;
}

export type BMFontFormat = 'text' | 'xml' | 'binary';

/** An 8-bit image: 1 channel (grey) or 4 (RGBA), rows top to bottom, no padding. */
export interface GuiImage {
  width: number;
  height: number;
  channels: 1 | 4;
  data: Uint8Array;
}

export type ImageFormat = 'png' | 'tga';
