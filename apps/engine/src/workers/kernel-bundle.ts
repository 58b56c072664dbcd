// Workers load plain JavaScript: the compile kernels (and @cuttle/jobs' worker loop) are bundled
// with esbuild the first time a parallel compile needs them, from the engine's TypeScript
// sources, so `cuttle-engine compile` also runs in parallel when the engine runs from source. The
// files are named by the hash of their contents, under the engine's own node_modules/.cache (not
// the shared temporary folder, where another user could plant a file for the workers to load):
// a changed compiler makes new files, an unchanged one reuses them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface KernelUrls {
  /** The kernel module (compile-kernels.ts, bundled). */
  kernels: string;
  /** @cuttle/jobs' worker entry, bundled. */
  worker: string;
}

let bundled: Promise<KernelUrls> | undefined;

export function compileKernelUrls(): Promise<KernelUrls> {
  bundled ??= bundleKernels();
  return bundled;
}

async function bundleKernels(): Promise<KernelUrls> {
  const [{ build }, { rawTextPlugin }] = await Promise.all([import('esbuild'), import('@cuttle/build')]);
  const result = await build({
    entryPoints: { 'compile-kernels': join(import.meta.dirname, 'compile-kernels.ts'), 'jobs-worker': '@cuttle/jobs/worker' },
    absWorkingDir: import.meta.dirname,
    outdir: 'out',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cuttle/source'],
    // CommonJS dependencies bundled into ESM need a real require.
    banner: { js: "import { createRequire as __cuttleRequire } from 'node:module'; const require = __cuttleRequire(import.meta.url);" },
    plugins: [rawTextPlugin()],
    logLevel: 'error',
  });
  const hash = createHash('sha1');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache', 'cuttle-engine', `kernels-${hash.digest('hex').slice(0, 16)}`);
  const urls = { kernels: pathToFileURL(join(dir, 'compile-kernels.mjs')).href, worker: pathToFileURL(join(dir, 'jobs-worker.mjs')).href };
  if (existsSync(join(dir, 'done'))) return urls;
  // Written beside, then renamed: two compilers starting at once never load half a file.
  const staging = `${dir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  for (const file of result.outputFiles) writeFileSync(join(staging, file.path.endsWith('compile-kernels.mjs') ? 'compile-kernels.mjs' : 'jobs-worker.mjs'), file.contents);
  writeFileSync(join(staging, 'done'), '');
  try {
    renameSync(staging, dir);
  } catch {
    // Another compiler renamed its copy first: theirs is the same bytes.
    rmSync(staging, { recursive: true, force: true });
  }
  return urls;
}
