// The demo's scenes, read from their sources: apps/demo/src/scene-registry.ts collects every
// src/scenes/<name>/index.ts with Vite's import.meta.glob, which plain Node cannot run, so the
// site reads the same files' `id`, `title` and `package` fields.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { demoRoot } from './paths.ts';

export interface SiteScene {
  id: string;
  title: string;
  /** '@cuttle/ecs' */
  package: string;
  description: string;
  /** Repository paths of the scene's source files. */
  files: string[];
}

function field(source: string, name: string, file: string): string {
  const match = new RegExp(`\\b${name}:\\s*(['"])((?:\\\\.|(?!\\1).)*)\\1`).exec(source);
  if (!match?.[2]) throw new Error(`${file}: no \`${name}: '...'\` in its scene definition (the site reads id, title, package, description).`);
  return match[2].replace(/\\(.)/g, '$1');
}

export function readScenes(): SiteScene[] {
  const scenesDir = join(demoRoot, 'src', 'scenes');
  const scenes: SiteScene[] = [];
  for (const folder of readdirSync(scenesDir).sort()) {
    const file = join(scenesDir, folder, 'index.ts');
    if (!existsSync(file)) continue;
    const source = readFileSync(file, 'utf8');
    const files = readdirSync(join(scenesDir, folder)).sort().map((name) => `apps/demo/src/scenes/${folder}/${name}`);
    scenes.push({
      id: field(source, 'id', file),
      title: field(source, 'title', file),
      package: field(source, 'package', file),
      description: field(source, 'description', file),
      files,
    });
  }
  return scenes;
}
