// The demo's distance-field font (DejaVu Sans, made by cuttle-font; see font/README.md),
// loaded once: the .fnt as text, the page through @cuttle/gui's PNG decoder.
import { decodePng, GuiFont, parseBMFontText, type GuiImage } from '@cuttle/gui';
import fnt from './font/dejavu-sans.fnt?raw';
import pageUrl from './font/dejavu-sans_0.png?url';

export interface DemoFont {
  font: GuiFont;
  pages: GuiImage[];
}

let loading: Promise<DemoFont> | undefined;

export function loadDemoFont(): Promise<DemoFont> {
  loading ??= (async () => {
    const response = await fetch(pageUrl);
    if (!response.ok) throw new Error(`font page ${pageUrl}: HTTP ${response.status}`);
    const page = await decodePng(new Uint8Array(await response.arrayBuffer()));
    return { font: new GuiFont(parseBMFontText(fnt)), pages: [page] };
  })();
  return loading;
}
