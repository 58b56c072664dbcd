// Writes a large project in the sample's style, for measuring the data compiler at project scale
// (issue #36): by default 50 levels placing 20,000 units of 2,000 prefabs, 1,000 materials, 200
// meshes (20 skinned), 20 fonts, 500 textures and 200 Flow graphs. Deterministic (seeded). The
// command is ../make-large-project.ts.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FULL_SIZE, type LargeProjectCounts } from './options.ts';
import { Random } from './random.ts';
import { skinnedMeshFile, staticMeshFile, textureFile } from './assets.ts';
import { flowSource, fontSource, levelSource, materialSource, names, packageSource, unitSource, type PlacedPrefab, type UnitKind } from './sources.ts';

/** Marks a folder this generator wrote, so a second run may clear it (and nothing else). */
const MARKER = '.cuttle-large-project';
const SAMPLE = join(import.meta.dirname, '..', '..', 'sample');

export interface LargeProjectSummary {
  counts: LargeProjectCounts;
  files: number;
  bytes: number;
}

/** `sample`: the sample project, whose font and dependency settings the large project copies. */
export async function writeLargeProject(out: string, counts: LargeProjectCounts = FULL_SIZE, seed = 1, sample = SAMPLE): Promise<LargeProjectSummary> {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!existsSync(join(out, MARKER))) throw new Error(`${out} is not empty and was not written by this generator; name a new folder`);
    rmSync(out, { recursive: true, force: true });
  }
  const random = new Random(seed);
  let files = 0;
  let bytes = 0;
  const write = (path: string, data: string | Uint8Array): void => {
    const full = join(out, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, data);
    files++;
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, MARKER), `${JSON.stringify({ counts, seed })}\n`);
  cpSync(join(sample, '.cuttle-deps.sjson'), join(out, '.cuttle-deps.sjson'));
  for (const file of ['DejaVuSans.ttf', 'LICENSE-DejaVu.txt']) write(`fonts/${file}`, readFileSync(join(sample, 'fonts', file)));

  // A tenth of the textures are normal maps; materials name colour textures, some a normal map.
  const normalMaps = Math.max(1, Math.round(counts.textures / 10));
  for (let i = 0; i < counts.textures; i++) write(`${names.texture(i)}.png`, await textureFile(random, i < normalMaps));
  const staticMeshes = counts.meshes - counts.skinnedMeshes;
  for (let i = 0; i < counts.meshes; i++) write(`${names.mesh(i)}.glb`, i < staticMeshes ? await staticMeshFile(random) : await skinnedMeshFile(random));
  const materials: string[] = [];
  for (let i = 0; i < counts.materials; i++) {
    const colour = random.next() < 0.7 ? names.texture(random.int(normalMaps, counts.textures - 1)) : undefined;
    const normal = random.next() < 0.2 ? names.texture(random.int(0, normalMaps - 1)) : undefined;
    write(`${names.material(i)}.material`, materialSource(random, colour, normal));
    materials.push(names.material(i));
  }
  // Half the graphs are unit scripts (lamps run them), half level scripts.
  const unitFlows = Math.max(1, Math.floor(counts.flows / 2));
  for (let i = 0; i < counts.flows; i++) write(`${names.flow(i)}.flow`, flowSource(random, i < unitFlows ? 'unit' : 'level', names.flow(i)));
  for (let i = 0; i < counts.fonts; i++) write(`${names.font(i)}.font`, fontSource(random, 'fonts/DejaVuSans.ttf'));

  const prefabs: PlacedPrefab[] = [];
  for (let i = 0; i < counts.unitPrefabs; i++) {
    const roll = random.next();
    const kind: UnitKind = roll < 0.05 ? 'character' : roll < 0.15 ? 'lamp' : 'prop';
    const mesh = kind === 'character' ? names.mesh(random.int(staticMeshes, counts.meshes - 1)) : names.mesh(random.int(0, staticMeshes - 1));
    write(`${names.unit(i)}.unit`, unitSource(random, kind, mesh, random.pick(materials), names.flow(random.int(0, unitFlows - 1))));
    prefabs.push({ unit: names.unit(i), kind });
  }
  const levels: string[] = [];
  const levelFlows = counts.flows - unitFlows;
  for (let i = 0; i < counts.levels; i++) {
    // Each level draws from its own slice of the prefabs (neighbouring levels share some).
    const slice = Math.max(8, Math.round(prefabs.length / 10));
    const start = Math.floor((i * prefabs.length) / counts.levels);
    const own = Array.from({ length: slice }, (_, k) => prefabs[(start + k) % prefabs.length]!);
    const placed = Math.floor(counts.placedUnits / counts.levels) + (i < counts.placedUnits % counts.levels ? 1 : 0);
    const flow = levelFlows > 0 ? names.flow(unitFlows + (i % levelFlows)) : names.flow(0);
    write(`${names.level(i)}.level`, levelSource(random, i, own, placed, flow, names.font(i % counts.fonts), materials));
    levels.push(names.level(i));
  }
  write('boot.package', packageSource(levels.slice(0, 1), [names.font(0)]));
  write('all.package', packageSource(levels, Array.from({ length: counts.fonts }, (_, i) => names.font(i))));
  return { counts, files, bytes };
}
