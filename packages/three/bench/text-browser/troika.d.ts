// What the benchmark uses of troika-three-text 0.53.0, which ships no resolvable types.
declare module 'troika-three-text' {
  import type { Mesh, Texture } from 'three';

  export interface TroikaTextRenderInfo {
    sdfTexture: Texture;
    glyphAtlasIndices: Float32Array;
  }

  export class Text extends Mesh {
    text: string;
    font: string | null;
    fontSize: number;
    anchorX: number | string;
    anchorY: number | string;
    color: number | string | null;
    readonly textRenderInfo: TroikaTextRenderInfo | null;
    sync(callback?: () => void): void;
    dispose(): void;
  }

  export class BatchedText extends Text {
    addText(text: Text): void;
  }

  export function configureTextBuilder(config: { useWorker?: boolean; sdfGlyphSize?: number }): void;
}
