// package: resources loaded together. Every listed resource must exist.
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
  return writeContainer({ type: 'package', meta: { resources } satisfies PackageMeta });
}
