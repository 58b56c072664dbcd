// Node module hooks giving `?raw` imports their Vite meaning under tsx (bench runner, scripts).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

interface LoadResult {
  format: string;
  source: string;
  shortCircuit: boolean;
}
type NextLoad = (url: string, context: unknown) => Promise<unknown>;

export async function load(url: string, context: unknown, nextLoad: NextLoad): Promise<unknown> {
  if (url.startsWith('file:') && url.endsWith('?raw')) {
    const text = await readFile(fileURLToPath(url.slice(0, -'?raw'.length)), 'utf8');
    const result: LoadResult = { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
    return result;
  }
  return nextLoad(url, context);
}
