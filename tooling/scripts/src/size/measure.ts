// The bundle figures of each package: its README example's imports tree-shaken, its whole main
// entry, and the smallest bundle of any one of its named exports (for the sideEffects check).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSizes, type BundleEntry } from './bundle.ts';
import { readmeExampleImports } from './imports.ts';
import type { PublishablePackage } from '../publishable.ts';

export interface BundleFigures {
  /** Undefined when the README has no example importing runtime code. */
  example?: { minBytes: number; gzipBytes: number; imports: string[] };
  whole: { minBytes: number; gzipBytes: number; exports: number };
  /** The named export of the main entry whose bundle alone is smallest. */
  smallestExport?: { name: string; minBytes: number };
}

const idOf = (specifier: string): string => specifier.replace(/[^\w-]/g, '_');
const reexport = (specifier: string): string => `export * from ${JSON.stringify(specifier)};\n`;

export async function measureBundles(packages: PublishablePackage[]): Promise<Map<string, BundleFigures>> {
  const examples = new Map(packages.map((p) => [p.manifest.name, readmeExampleImports(readFileSync(join(p.dir, 'README.md'), 'utf8'))]));
  // Pass 1: every entry whole; gives the sizes and which names exist at run time (a name the
  // example imports that is missing here is a type, and costs nothing).
  const specifiers = new Set(packages.map((p) => p.manifest.name));
  for (const imports of examples.values()) for (const s of imports.keys()) specifiers.add(s);
  const whole = await bundleSizes([...specifiers].map((s) => ({ id: `whole-${idOf(s)}`, code: reexport(s) })), packages);
  const runtimeNames = (specifier: string): string[] => {
    const size = whole.get(`whole-${idOf(specifier)}`);
    if (size === undefined) throw new Error(`size: esbuild made no bundle of ${specifier}`);
    return size.exports;
  };

  // Pass 2: each example's imports, and each named export of each main entry alone.
  const entries: BundleEntry[] = [];
  const exampleNames = new Map<string, string[]>();
  for (const p of packages) {
    const lines: string[] = [];
    const shown: string[] = [];
    for (const [i, [specifier, names]] of [...examples.get(p.manifest.name)!].entries()) {
      if (names.has('*')) {
        lines.push(`export * as s${i} from ${JSON.stringify(specifier)};`);
        shown.push(`* from ${specifier}`);
        continue;
      }
      const exist = new Set(runtimeNames(specifier));
      const kept = [...names].filter((n) => exist.has(n));
      if (kept.length === 0) continue;
      // Aliased, so two specifiers exporting one name cannot clash.
      lines.push(`export { ${kept.map((n) => `${n} as s${i}_${n}`).join(', ')} } from ${JSON.stringify(specifier)};`);
      shown.push(`${kept.join(', ')} from ${specifier}`);
    }
    if (lines.length > 0) {
      entries.push({ id: `example-${p.short}`, code: lines.join('\n') + '\n' });
      exampleNames.set(p.manifest.name, shown);
    }
    for (const name of runtimeNames(p.manifest.name)) entries.push({ id: `one-${p.short}-${name}`, code: `export { ${name} } from ${JSON.stringify(p.manifest.name)};\n` });
  }
  const sizes = await bundleSizes(entries, packages);

  const out = new Map<string, BundleFigures>();
  for (const p of packages) {
    const w = whole.get(`whole-${idOf(p.manifest.name)}`)!;
    const figures: BundleFigures = { whole: { minBytes: w.minBytes, gzipBytes: w.gzipBytes, exports: w.exports.length } };
    const example = sizes.get(`example-${p.short}`);
    if (example !== undefined) figures.example = { minBytes: example.minBytes, gzipBytes: example.gzipBytes, imports: exampleNames.get(p.manifest.name)! };
    for (const name of w.exports) {
      const one = sizes.get(`one-${p.short}-${name}`);
      if (one !== undefined && (figures.smallestExport === undefined || one.minBytes < figures.smallestExport.minBytes)) figures.smallestExport = { name, minBytes: one.minBytes };
    }
    out.set(p.manifest.name, figures);
  }
  return out;
}
