// Golden outputs: every resource type of the sample project compiled, described (header and a
// hash of each section) and compared with test/fixtures/golden/*.json; and each output read
// back the way the runtime reads it (ECS archive, Flow program, BMFont, skeleton and clip).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadLibrary } from '@cuttle/ecs';
import { loadFlowProgram } from '@cuttle/flow';
import { GuiFont, parseBMFont } from '@cuttle/gui';
import { createAnimationClip, createSkeleton } from '@cuttle/gpu-skinning';
import { compileProject } from '../src/compiler/compile-project.ts';
import { contentHash } from '../src/compiler/hash.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { createLevelLibrary } from '../src/compiler/resources/level.ts';
import { readContainer, section, type Container } from '../src/runtime/container.ts';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import type { FontMeta, LevelMeta, MaterialMeta, MeshMeta, PackageMeta, SkinnedMeshMeta, TextureMeta, UnitMeta } from '../src/runtime/formats.ts';
import { readKtx2Header } from '../src/textures/ktx2-header.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeAll(async () => {
  project = scratchProject();
  const report = await compileProject(project.source, project.out);
  expect(report.failed).toEqual([]);
});
afterAll(() => { project.dispose(); });

function output<M>(path: string, type: string): Container<M> {
  return readContainer<M>(readFileSync(join(project.out, `${path}.cr`)), type, path);
}

function describeOutput(container: Container<unknown>): unknown {
  const sections: Record<string, { kind: string; length: number; sha1: string }> = {};
  for (const [name, array] of container.sections) sections[name] = { kind: array.constructor.name, length: array.length, sha1: contentHash(new Uint8Array(array.buffer, array.byteOffset, array.byteLength)) };
  return { type: container.type, meta: container.meta, sections };
}

const GOLDEN = join(import.meta.dirname, 'fixtures', 'golden');

function matchesGolden(name: string, container: Container<unknown>): void {
  const actual = describeOutput(container);
  const file = join(GOLDEN, `${name}.json`);
  if (process.env.CUTTLE_UPDATE_GOLDEN || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, JSON.stringify(actual, null, 1) + '\n');
    if (!process.env.CUTTLE_UPDATE_GOLDEN) throw new Error(`test/fixtures/golden/${name}.json was missing and has been written: check it, then run again.`);
  }
  expect(JSON.parse(JSON.stringify(actual))).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

describe('golden outputs per resource type', () => {
  test('level: an ECS archive of 282 placed units with their components', () => {
    const level = output<LevelMeta>('levels/courtyard.level', 'level');
    matchesGolden('level', level);
    expect(level.meta.units.length).toBe(282);
    const { scene, managers } = createLevelLibrary();
    const loaded = loadLibrary(scene.library, section(level, 'ecs', Uint8Array));
    expect(loaded.skipped).toEqual([]);
    expect(scene.transforms.count).toBe(282);
    expect(managers.light.count).toBe(48);
    expect(managers.character.count).toBe(16);
    expect(managers.render.count).toBe(282 - 48 - 16 + 48); // lamps have a bulb mesh too; walkers are characters
    expect(managers.script.count).toBe(48);
    // Every hash in the archive has its name in the header.
    for (const m of [managers.render.fields.mesh, managers.render.fields.material]) for (let i = 0; i < managers.render.count; i++) expect(level.meta.names[m[i]!]).toBeDefined();
  });

  test('unit, material, package: headers', () => {
    const unit = output<UnitMeta>('units/lamp.unit', 'unit');
    matchesGolden('unit', unit);
    expect(unit.meta).toEqual({ mesh: 'meshes/lamp', material: 'materials/lamp', flow: 'flow/lamp', light: { color: [1, 0.7, 0.4], range: 4, intensity: 4 } });
    const material = output<MaterialMeta>('materials/water.material', 'material');
    matchesGolden('material', material);
    expect(material.meta).toMatchObject({ alphaMode: 'blend', caustics: true, normalTexture: 'textures/ripple', roughness: 0.05 });
    const pkg = output<PackageMeta>('boot.package', 'package');
    matchesGolden('package', pkg);
    expect(pkg.meta.resources).toEqual([{ type: 'level', name: 'levels/courtyard' }, { type: 'font', name: 'fonts/dejavu' }]);
  });

  test('flow: a blob the runtime loads with the same actions', () => {
    const flow = output('flow/courtyard.flow', 'flow');
    matchesGolden('flow', flow);
    const log: string[] = [];
    const program = loadFlowProgram(section(flow, 'blob', Uint8Array), createFlowRegistry({ log: (m) => log.push(m), setTitle: (t) => log.push(`title ${t}`), setLightScale: () => undefined, setWalkSpeed: () => undefined }));
    expect(program.stats.nodes).toBe(10);
  });

  test('font: a distance-field BMFont and its pages', () => {
    const font = output<FontMeta>('fonts/dejavu.font', 'font');
    matchesGolden('font', font);
    const fnt = parseBMFont(section(font, 'fnt', Uint8Array));
    expect(fnt.chars.length).toBeGreaterThanOrEqual(95);
    expect(new GuiFont(fnt).spread).toBe(4); // the distanceField block survives
    const page = section(font, 'page0', Uint8Array);
    expect(page.length).toBe(font.meta.pages[0]!.width * font.meta.pages[0]!.height);
    expect(Math.max(...page)).toBeGreaterThan(200); // inside glyphs
  });

  test('glb: a static mesh, and a skinned one with packed streams, skeleton and clip', () => {
    const crate = output<MeshMeta>('meshes/crate.glb', 'mesh');
    matchesGolden('mesh-static', crate);
    expect(crate.meta).toMatchObject({ kind: 'static', vertexCount: 24, bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] } });
    const walker = output<SkinnedMeshMeta>('meshes/walker.glb', 'mesh');
    matchesGolden('mesh-skinned', walker);
    expect(walker.meta.kind).toBe('skinned');
    expect(section(walker, 'positionNormal', Uint32Array).length).toBe(walker.meta.vertexCount * 4);
    const skeleton = createSkeleton({ parents: section(walker, 'parents', Int32Array), translations: section(walker, 'translations', Float32Array), rotations: section(walker, 'rotations', Float32Array), scales: section(walker, 'scales', Float32Array), joints: section(walker, 'joints', Uint32Array), inverseBindMatrices: section(walker, 'inverseBind', Float32Array) });
    expect(skeleton.jointCount).toBe(walker.meta.jointCount);
    const clip = createAnimationClip(skeleton, walker.meta.clips[0]!.channels.map((c) => ({ node: c.node, path: c.path, interpolation: c.interpolation, times: section(walker, c.times, Float32Array), values: section(walker, c.values, Float32Array) })));
    expect(clip.duration).toBeGreaterThan(0);
  });

  test('png: a KTX2 file (Basis Universal) with its mip chain; a normal map, as the water material uses it', () => {
    const texture = output<TextureMeta>('textures/ripple.png', 'texture');
    matchesGolden('texture', texture);
    expect(texture.meta).toEqual({ width: 128, height: 128, levels: 8, usage: 'normal', alpha: false, codec: 'basis' });
    expect(readKtx2Header(section(texture, 'ktx2', Uint8Array)).levelCount).toBe(8);
  });

  test('the manifest lists every output with its content hash and inputs', () => {
    const manifest = readManifest(project.out)!;
    expect(Object.keys(manifest.resources).length).toBe(26);
    for (const entry of Object.values(manifest.resources)) expect(contentHash(readFileSync(join(project.out, entry.file)))).toBe(entry.hash);
    expect(Object.keys(manifest.resources['levels/courtyard.level']!.inputs).sort()).toEqual(['levels/courtyard.level', 'units/column.unit', 'units/crate.unit', 'units/floor.unit', 'units/lamp.unit', 'units/pool.unit', 'units/walker.unit']);
    expect(Object.keys(manifest.resources['fonts/dejavu.font']!.inputs).sort()).toEqual(['fonts/DejaVuSans.ttf', 'fonts/dejavu.font']);
  });
});
