// The SJSON sources of the large project, in the sample's style (apps/engine/sample): materials
// that name textures, unit prefabs (static props, lamps with a light and a script, walking
// characters), Flow graphs for units and levels, fonts of one TTF at several sizes, and levels
// that place hundreds of prefabs each.
import { writeSjson, type JsonValue } from '@cuttle/tools-merge';
import type { Random } from './random.ts';

const sj = (value: JsonValue, comment: string): string => `// ${comment}\n${writeSjson(value)}`;
const pad = (i: number, width = 4): string => String(i).padStart(width, '0');
const color = (random: Random): number[] => [random.range(0.1, 1), random.range(0.1, 1), random.range(0.1, 1)];

export const names = {
  level: (i: number): string => `levels/level_${pad(i, 2)}`,
  unit: (i: number): string => `units/prop_${pad(i)}`,
  material: (i: number): string => `materials/mat_${pad(i)}`,
  mesh: (i: number): string => `meshes/mesh_${pad(i, 3)}`,
  font: (i: number): string => `fonts/font_${pad(i, 2)}`,
  texture: (i: number): string => `textures/tex_${pad(i, 3)}`,
  flow: (i: number): string => `flow/graph_${pad(i, 3)}`,
};

export function materialSource(random: Random, colorTexture: string | undefined, normalTexture: string | undefined): string {
  const doc: Record<string, JsonValue> = { base_color: [...color(random), 1], roughness: random.range(0.05, 1), metallic: random.next() < 0.2 ? 1 : 0 };
  if (colorTexture !== undefined) doc.base_color_texture = colorTexture;
  if (normalTexture !== undefined) {
    doc.normal_texture = normalTexture;
    doc.normal_scale = random.range(0.3, 1);
  }
  return sj(doc, 'Generated material');
}

export type UnitKind = 'prop' | 'lamp' | 'character';

export function unitSource(random: Random, kind: UnitKind, mesh: string, material: string, flow: string): string {
  if (kind === 'character') return sj({ mesh, material, character: { speed: random.range(0.6, 2), radius: random.range(1, 4) } }, 'A walking character');
  if (kind === 'lamp') return sj({ mesh, material, light: { color: color(random), range: random.range(2, 6), intensity: random.range(1, 6) }, flow }, 'A lamp with its script');
  return sj({ mesh, material }, 'A prop');
}

/** A graph of `chain` math nodes driven by a timer; level graphs also log and set the title. */
export function flowSource(random: Random, kind: 'unit' | 'level', name: string): string {
  const chain = random.int(2, 24);
  const nodes: JsonValue[] = [
    { id: 'start', type: kind === 'level' ? 'event/level_loaded' : 'event/unit_spawned' },
    { id: 'once', type: 'logic/once' },
    { id: 'tick', type: 'event/timer', inputs: { period: random.range(0.5, 4) } },
    { id: 'count', type: 'logic/counter' },
  ];
  const events: JsonValue[] = [{ from: 'start.out', to: 'once.in' }, { from: 'tick.tick', to: 'count.in' }];
  const links: JsonValue[] = [];
  let previous = 'count.count';
  for (let i = 0; i < chain; i++) {
    const type = random.pick(['math/sin', 'math/add', 'math/mul']);
    nodes.push(type === 'math/sin' ? { id: `m${i}`, type } : { id: `m${i}`, type, inputs: { b: random.range(-2, 2) } });
    links.push({ from: previous, to: `m${i}.a` });
    previous = `m${i}.result`;
  }
  if (kind === 'level') {
    nodes.push({ id: 'hello', type: 'action/log', inputs: { message: `${name} loaded` } }, { id: 'title', type: 'action/set_title', inputs: { text: name } });
    events.push({ from: 'once.out', to: 'hello.in' }, { from: 'hello.out', to: 'title.in' });
  }
  const doc: Record<string, JsonValue> = { flow: 1, kind, ...(kind === 'level' ? { name } : {}), nodes, events, links };
  return sj(doc, `Generated ${kind} script`);
}

const FONT_CHARS = [undefined, ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~', '0123456789:.,- ', ' ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÀÉÈÊËÎÏÔÙÛÜÇàéèêëîïôùûüç'];

export function fontSource(random: Random, ttf: string): string {
  const chars = random.pick(FONT_CHARS);
  return sj({ source: ttf, size: random.pick([16, 24, 32, 48, 64]), spread: random.pick([2, 4, 6]), ...(chars === undefined ? {} : { chars }) }, 'DejaVu Sans at another size');
}

export interface PlacedPrefab {
  unit: string;
  kind: UnitKind;
}

export function levelSource(random: Random, index: number, prefabs: readonly PlacedPrefab[], count: number, flow: string, font: string, materials: readonly string[]): string {
  const units: JsonValue[] = [];
  const side = Math.ceil(Math.sqrt(count));
  let characters = 0;
  for (let i = 0; i < count; i++) {
    let prefab = random.pick(prefabs);
    // A level walks at most 32 characters; the rest of its picks become props.
    while (prefab.kind === 'character' && characters >= 32) prefab = random.pick(prefabs);
    if (prefab.kind === 'character') characters++;
    const placed: Record<string, JsonValue> = { id: `u${pad(i, 5)}`, unit: prefab.unit, position: [(i % side) * 2.5 - side * 1.25, prefab.kind === 'lamp' ? 2.2 : 0, Math.floor(i / side) * 2.5 - side * 1.25] };
    if (prefab.kind === 'prop' && random.next() < 0.1) placed.rotation = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
    if (prefab.kind === 'prop' && random.next() < 0.05) placed.material = random.pick(materials);
    units.push(placed);
  }
  return sj({
    flow,
    font,
    title: { text: `Level ${index}`, x: 16, y: 16, size: 24 },
    sun: { direction: [random.range(-1, 1), -1, random.range(-1, 1)], color: [1, 0.95, 0.85], intensity: random.range(1.5, 3) },
    camera: { position: [0, 30, side * 1.6], target: [0, 0, 0] },
    units,
  }, `Generated level ${index}: ${count} units`);
}

export function packageSource(levels: readonly string[], fonts: readonly string[]): string {
  return sj({ level: [...levels], font: [...fonts] }, 'Generated package');
}
