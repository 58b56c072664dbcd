// Writes the sample project (apps/engine/sample): GLB meshes (static shapes and a skinned,
// animated walker from @cuttle/gpu-skinning's procedural character), PNG textures, and a level
// of a few hundred units. The files are committed; run this again only to change them:
//   pnpm --filter @cuttle/engine exec tsx --conditions=@cuttle/source --import ../../tooling/build/src/register-raw.ts sample-tools/make-sample.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodePng } from '@cuttle/gui';
import { boxMesh, planeMesh, rippleNormalMap, sphereMesh } from '@cuttle/render';
import { writeSjson } from '@cuttle/tools-merge';
import { staticGlb, walkerGlb } from './gltf-writers.ts';

const root = join(import.meta.dirname, '..', 'sample');

function write(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), data);
}

function checker(size: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const on = ((x >> 3) + (y >> 3)) % 2 === 0;
      const grain = 200 + ((x * 7 + y * 13) % 40);
      data.set(on ? [grain, Math.round(grain * 0.75), Math.round(grain * 0.5), 255] : [150, 105, 65, 255], (y * size + x) * 4);
    }
  }
  return data;
}

const sj = (value: Parameters<typeof writeSjson>[0], comment?: string): string => (comment ? `// ${comment}\n` : '') + writeSjson(value);

write('meshes/crate.glb', await staticGlb({ mesh: boxMesh(0.5, 0.5, 0.5) }));
write('meshes/column.glb', await staticGlb({ mesh: boxMesh(0.35, 2.5, 0.35) }));
write('meshes/floor.glb', await staticGlb({ mesh: planeMesh(48, 8) }));
write('meshes/lamp.glb', await staticGlb({ mesh: sphereMesh(0.15, 8, 12) }));
write('meshes/pool.glb', await staticGlb({ mesh: planeMesh(9.6, 1) }));
write('meshes/walker.glb', await walkerGlb());
write('textures/checker.png', await encodePng({ width: 64, height: 64, channels: 4, data: checker(64) }));
const ripple = rippleNormalMap(128);
write('textures/ripple.png', await encodePng({ width: ripple.width, height: ripple.height, channels: 4, data: ripple.data }));

write('materials/stone.material', sj({ base_color: [0.55, 0.5, 0.45, 1], roughness: 0.85 }, 'Courtyard paving'));
write('materials/wood.material', sj({ base_color: [1, 1, 1, 1], roughness: 0.7, base_color_texture: 'textures/checker' }, 'Crates'));
write('materials/painted.material', sj({ base_color: [0.2, 0.45, 0.9, 1], roughness: 0.5 }, 'A few crates are painted blue'));
write('materials/brass.material', sj({ base_color: [0.8, 0.55, 0.3, 1], metallic: 1, roughness: 0.35 }));
write('materials/lamp.material', sj({ base_color: [1, 0.9, 0.6, 1], emissive: [4, 3, 1.5], roughness: 0.4 }));
write('materials/water.material', sj({ base_color: [0.35, 0.6, 0.8, 0.35], alpha_mode: 'blend', roughness: 0.05, normal_texture: 'textures/ripple', normal_scale: 0.6, caustics: true }, 'The pool: blended, its shadow throws caustics'));
write('materials/skin.material', sj({ base_color: [0.7, 0.35, 0.25, 1], roughness: 0.6 }));

write('units/floor.unit', sj({ mesh: 'meshes/floor', material: 'materials/stone' }));
write('units/crate.unit', sj({ mesh: 'meshes/crate', material: 'materials/wood' }, 'A wooden crate'));
write('units/column.unit', sj({ mesh: 'meshes/column', material: 'materials/brass' }));
write('units/lamp.unit', sj({ mesh: 'meshes/lamp', material: 'materials/lamp', light: { color: [1, 0.7, 0.4], range: 4, intensity: 4 }, flow: 'flow/lamp' }, 'A lamp: a glowing bulb and a culled point light'));
write('units/walker.unit', sj({ mesh: 'meshes/walker', material: 'materials/skin', character: { speed: 1.2, radius: 2.5 } }, 'An animated character walking in circles'));
write('units/pool.unit', sj({ mesh: 'meshes/pool', material: 'materials/water' }));

write('flow/courtyard.flow', sj({
  flow: 1,
  kind: 'level',
  name: 'courtyard',
  nodes: [
    { id: 'start', type: 'event/level_loaded' },
    { id: 'hello', type: 'action/log', inputs: { message: 'courtyard loaded' } },
    { id: 'title', type: 'action/set_title', inputs: { text: 'Cuttle courtyard' } },
    { id: 'tick', type: 'event/timer', inputs: { period: 2 } },
    { id: 'count', type: 'logic/counter' },
    { id: 'phase', type: 'math/sin' },
    { id: 'scale', type: 'math/lerp', inputs: { a: 0.6, b: 1.4 } },
    { id: 'half', type: 'math/mul', inputs: { b: 0.5 } },
    { id: 'offset', type: 'math/add', inputs: { b: 0.5 } },
    { id: 'lights', type: 'action/set_light_scale' },
  ],
  events: [
    { from: 'start.out', to: 'hello.in' },
    { from: 'hello.out', to: 'title.in' },
    { from: 'tick.tick', to: 'count.in' },
    { from: 'count.out', to: 'lights.in' },
  ],
  links: [
    { from: 'count.count', to: 'phase.a' },
    { from: 'phase.result', to: 'half.a' },
    { from: 'half.result', to: 'offset.a' },
    { from: 'offset.result', to: 'scale.t' },
    { from: 'scale.result', to: 'lights.scale' },
  ],
}, 'Level script: greets, sets the title, and breathes the lamps every two seconds'));
write('flow/lamp.flow', sj({
  flow: 1,
  kind: 'unit',
  nodes: [
    { id: 'spawned', type: 'event/unit_spawned' },
    { id: 'once', type: 'logic/once' },
  ],
  events: [{ from: 'spawned.out', to: 'once.in' }],
}, 'Per-lamp script'));

// The font file itself (fonts/DejaVuSans.ttf, from Debian's fonts-dejavu-core, with its license
// in fonts/LICENSE-DejaVu.txt) is committed beside it: sources read only files of the project.
write('fonts/dejavu.font', sj({ source: 'fonts/DejaVuSans.ttf', size: 32, spread: 4 }, 'DejaVu Sans (fonts/DejaVuSans.ttf, its license in fonts/LICENSE-DejaVu.txt)'));

// The level: floor, pool, 24 columns, 192 crates, 48 lamps, 16 walkers: 282 units.
const units: Record<string, unknown>[] = [{ id: 'floor', unit: 'units/floor' }, { id: 'pool', unit: 'units/pool', position: [8, 0.45, 8] }];
for (let i = 0; i < 24; i++) units.push({ id: `column_${String(i).padStart(2, '0')}`, unit: 'units/column', position: [-18 + (i % 12) * 3.2, 2.5, i < 12 ? -14 : -6] });
let n = 0;
for (let z = 0; z < 12; z++) {
  for (let x = 0; x < 16; x++) {
    const id = `crate_${String(n).padStart(3, '0')}`;
    const stack = (x * 7 + z * 3) % 5 === 0 ? 1 : 0;
    const crate: Record<string, unknown> = { id, unit: 'units/crate', position: [-19 + x * 1.3, 0.5 + stack, 2 + z * 1.3] };
    if (n % 17 === 0) crate.material = 'materials/painted';
    units.push(crate);
    n++;
  }
}
for (let i = 0; i < 48; i++) {
  const a = (i / 48) * Math.PI * 2;
  units.push({ id: `lamp_${String(i).padStart(2, '0')}`, unit: 'units/lamp', position: [Math.round(Math.cos(a) * 2000) / 100, 2.2, Math.round(Math.sin(a) * 2000) / 100] });
}
for (let i = 0; i < 16; i++) units.push({ id: `walker_${String(i).padStart(2, '0')}`, unit: 'units/walker', position: [-2 + (i % 4) * 5, 0, -2 + Math.floor(i / 4) * 4] });
const level = {
  flow: 'flow/courtyard',
  font: 'fonts/dejavu',
  title: { text: 'Cuttle courtyard', x: 16, y: 16, size: 28 },
  sun: { direction: [0.35, -1, 0.45], color: [1, 0.95, 0.85], intensity: 2.4 },
  camera: { position: [0, 14, 26], target: [0, 0, 2] },
  fluid: { particles: 4096, min: [13, 0, -14], max: [19, 3, -8], color: [0.15, 0.4, 0.85] },
  units,
};
write('levels/courtyard.level', sj(level as Parameters<typeof writeSjson>[0], 'The sample level: edit it with the tool (apps/engine-tool) or by hand'));
write('boot.package', sj({ level: ['levels/courtyard'], font: ['fonts/dejavu'] }, 'Loaded when the engine starts'));
write('.cuttle-deps.sjson', sj({ key_types: { unit: 'unit', material: 'material', flow: 'flow', font: 'font', mesh: 'glb', base_color_texture: 'png', normal_texture: 'png', metallic_roughness_texture: 'png', emissive_texture: 'png', occlusion_texture: 'png', level: 'level', glb: 'glb', png: 'png' }, root_types: ['package', 'level'] }, 'How resources refer to each other (cuttle-merge deps check sample)'));
console.log(`sample written to ${root}: ${units.length} units`);
