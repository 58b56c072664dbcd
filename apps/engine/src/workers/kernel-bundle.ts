// Workers load plain JavaScript: the engine's kernels (the compiler's, the frame's, the texture
// loading's) and @cuttle/jobs' worker loop are bundled with esbuild the first time workers
// start, from the engine's TypeScript sources, so workers also run when the engine runs from source. The
// files are named by the hash of their contents, under the engine's own node_modules/.cache (not
// the shared temporary folder, where another user could plant a file for the workers to load):
// a changed compiler makes new files, an unchanged one reuses them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface KernelUrls {
  /** The compiler's kernel module (compiler/parallel/compile-kernels.ts, bundled). */
  kernels: string;
  /** The frame's kernel module (runtime/parallel/frame-kernels.ts, bundled). */
  frame?: string;
  /** The texture loading kernel module of the frame workers (runtime/parallel/texture-kernels.ts, bundled). */
  textures?: string;
  /** @cuttle/jobs' worker entry, bundled. */
  worker: string;
}

/** The bundle's files in `dir`, as writeKernelBundle names them (a bundled benchmark passes its own folder). */
export function kernelUrlsIn(dir: string): KernelUrls {
  const url = (file: string): string => pathToFileURL(join(dir, file)).href;
  return { kernels: url('compile-kernels.mjs'), frame: url('frame-kernels.mjs'), textures: url('texture-kernels.mjs'), worker: url('jobs-worker.mjs') };
}

let bundled: Promise<KernelUrls> | undefined;

export function compileKernelUrls(): Promise<KernelUrls> {
  bundled ??= bundleKernels();
  return bundled;
}

/** The bundled files, named as KernelUrls expects them: for machines that run bundles, not source (the GPU machine). */
export async function writeKernelBundle(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files = await buildKernels();
  for (const file of files) writeFileSync(join(dir, basename(file.path)), file.contents);
  return files.map((file) => basename(file.path));
}

async function buildKernels(): Promise<{ path: string; contents: Uint8Array }[]> {
  const [{ build }, { rawTextPlugin }] = await Promise.all([import('esbuild'), import('@cuttle/build')]);
  const result = await build({
    entryPoints: { 'compile-kernels': join(import.meta.dirname, '../compiler/parallel/compile-kernels.ts'), 'frame-kernels': join(import.meta.dirname, '../runtime/parallel/frame-kernels.ts'), 'texture-kernels': join(import.meta.dirname, '../runtime/parallel/texture-kernels.ts'), 'jobs-worker': '@cuttle/jobs/worker' },
    absWorkingDir: import.meta.dirname,
    outdir: 'out',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cuttle/source'],
    // ktx2-encoder's WebAssembly file is found beside its JavaScript, and sharp is a native addon:
    // both are left to Node to load from node_modules.
    external: ['ktx2-encoder', 'sharp'],
    // CommonJS dependencies bundled into ESM need a real require.
    banner: { js: "import { createRequire as __cuttleRequire } from 'node:module'; const require = __cuttleRequire(import.meta.url);" },
    plugins: [rawTextPlugin()],
    logLevel: 'error',
  });
  return result.outputFiles;
}

async function bundleKernels(): Promise<KernelUrls> {
  const outputFiles = await buildKernels();
  const hash = createHash('sha1');
  for (const file of outputFiles) hash.update(file.path).update(file.contents);
  const dir = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'cuttle-engine', `kernels-${hash.digest('hex').slice(0, 16)}`);
  const urls = kernelUrlsIn(dir);
  if (existsSync(join(dir, 'done'))) return urls;
  // Written beside, then renamed: two compilers starting at once never load half a file.
  const staging = `${dir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  for (const file of outputFiles) writeFileSync(join(staging, basename(file.path)), file.contents);
  writeFileSync(join(staging, 'done'), '');
  try {
    renameSync(staging, dir);
  } catch {
    // Another compiler renamed its copy first: theirs is the same bytes.
    rmSync(staging, { recursive: true, force: true });
  }
  return urls;
}
