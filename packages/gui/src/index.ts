export type { BMFont, BMFontChar, BMFontCommon, BMFontDistanceField, BMFontFormat, BMFontInfo, BMFontKerning } from './api.ts';
export { parseBMFont, detectBMFontFormat } from './bmfont.ts';
export { parseBMFontText, writeBMFontText } from './bmfont-text.ts';
export { parseBMFontXml, writeBMFontXml } from './bmfont-xml.ts';
export { parseBMFontBinary, writeBMFontBinary, isBMFontBinary } from './bmfont-binary.ts';
export { GuiError } from './errors.ts';
