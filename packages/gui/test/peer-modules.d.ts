// The npm peers ship no types; this is the shape of what they return (the BMFont fields).
declare module 'parse-bmfont-ascii' {
  const parse: (text: string) => PeerBMFont;
  export default parse;
}
declare module 'parse-bmfont-xml' {
  const parse: (text: string) => PeerBMFont;
  export default parse;
}
declare module 'parse-bmfont-binary' {
  const parse: (bytes: Buffer) => PeerBMFont;
  export default parse;
}
interface PeerBMFont {
  info: { face: string; size: number; smooth: number; unicode: number; padding: number[] };
  common: { lineHeight: number; scaleW: number };
  pages: string[];
  chars: { id: number; x: number; y: number; width: number; height: number; xoffset: number; yoffset: number; xadvance: number; page: number; chnl: number }[];
  kernings: { first: number; second: number; amount: number }[];
}
