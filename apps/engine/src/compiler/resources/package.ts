// package: resources loaded together. Every listed resource must exist, and there is one at least.
import type { PackageMeta } from '../../runtime/formats.ts';
import { writeContainer } from '../../runtime/container.ts';
import { validate, type CompileContext } from '../context.ts';
import { PACKAGE_SOURCE } from '../schemas.ts';

export function compilePackage(ctx: CompileContext): Uint8Array {
  const src = validate(ctx, PACKAGE_SOURCE, ctx.document());
  const resources: PackageMeta['resources'] = [];
  for (const [type, list] of Object.entries(src)) {
    list.forEach((name, i) => {
      ctx.requireResource(type, name, [type, i]);
      resources.push({ type, name });
    });
  }
  // An emptied boot package would only fail later, when the engine starts.
  if (resources.length === 0) ctx.fail([], 'the package lists no resources', 'List what it loads, e.g. level = ["levels/<name>"]');
  return writeContainer({ type: 'package', meta: { resources } satisfies PackageMeta });
}
