// Bundles tiny entry modules the way an app's bundler would ship our code: esbuild, bundled,
// minified, ESM, platform neutral (the entries are the same for browsers and Node; none of our
// exports maps has a browser or node condition). Workspace packages resolve through their
// exports maps to the built dist/ (the @cuttle/source condition is not set); third-party
// packages and node: builtins stay external, so every figure is Cuttle's own code.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import type { PublishablePackage } from '../publishable.ts';

export interface BundleEntry {
  /** A file-name-safe id, unique in one call. */
  id: string;
  code: string;
}

export interface BundleSize {
  minBytes: number;
  gzipBytes: number;
  /** The names the bundle exports (for `export *` entries: the module's runtime exports). */
  exports: string[];
}

const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(b) {
    // Bare specifiers other than ours: dependencies and builtins, not our bytes.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@cuttle/') ? undefined : { path: args.path, external: true }));
  },
};

/** Minified and gzipped (level 9) bytes of each entry, bundled on its own (no shared chunks). */
export async function bundleSizes(entries: BundleEntry[], workspace: PublishablePackage[]): Promise<Map<string, BundleSize>> {
  // The entries live in a scratch project whose node_modules/@cuttle links to packages/*, so
  // they import the packages by name, as a user's app does.
  // Real path: esbuild reports entry points relative to it, resolved through symlinks.
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'cuttle-size-bundle-')));
  try {
    mkdirSync(join(work, 'node_modules/@cuttle'), { recursive: true });
    for (const p of workspace) symlinkSync(p.dir, join(work, 'node_modules/@cuttle', p.short), 'dir');
    const files = new Map<string, string>();
    for (const entry of entries) {
      const file = join(work, `${entry.id}.js`);
      writeFileSync(file, entry.code);
      files.set(entry.id, file);
    }
    const result = await build({
      absWorkingDir: work,
      entryPoints: [...files.values()],
      outdir: join(work, 'out'),
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [externalThirdParty],
    });
    const idByEntryPoint = new Map([...files].map(([id, file]) => [relative(work, file), id]));
    const sizes = new Map<string, BundleSize>();
    for (const file of result.outputFiles) {
      const out = relative(work, file.path);
      const meta = result.metafile.outputs[out];
      if (meta?.entryPoint === undefined) continue;
      const id = idByEntryPoint.get(meta.entryPoint);
      if (id === undefined) continue;
      sizes.set(id, { minBytes: file.contents.byteLength, gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength, exports: meta.exports });
    }
    return sizes;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
