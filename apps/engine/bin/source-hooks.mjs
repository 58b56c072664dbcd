// Module hooks for running from source: the `@cuttle/source` export condition, and `?raw`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes('@cuttle/source') ? context.conditions : [...context.conditions, '@cuttle/source'];
  return nextResolve(specifier, { ...context, conditions });
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('?raw')) {
    const text = await readFile(fileURLToPath(url.slice(0, -'?raw'.length)), 'utf8');
    return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
  }
  return nextLoad(url, context);
}
