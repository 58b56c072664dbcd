// Deterministic generated level files for the benchmarks and the large-input tests: an id array
// of placed units (the bulk), id arrays of lights and strings, a plain array of spline points,
// and settings. `editLevel` makes one designer's edit of it.
import type { JsonObject, JsonValue } from '../src/index.ts';
import { jsonClone, writeJson } from '../src/index.ts';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function guid(next: () => number): string {
  let s = '';
  for (let i = 0; i < 32; i++) {
    s += Math.floor(next() * 16).toString(16);
    if (i === 7 || i === 11 || i === 15 || i === 19) s += '-';
  }
  return s;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function unit(next: () => number): JsonObject {
  return {
    id: guid(next),
    type: `units/props/crate_${Math.floor(next() * 40)}`,
    name: `crate ${Math.floor(next() * 1e6)}`,
    position: [round(next() * 2000 - 1000), round(next() * 100), round(next() * 2000 - 1000)],
    rotation: [0, round(next()), 0, round(next())],
    scale: [1, 1, 1],
    material: `materials/wood_${Math.floor(next() * 8)}`,
    data: { health: Math.floor(next() * 100), breakable: next() < 0.5, tags: ['prop', next() < 0.5 ? 'static' : 'dynamic'] },
  };
}

/** A level of about `bytes` bytes of JSON. */
export function generateLevel(bytes: number, seed = 1): JsonObject {
  const next = rng(seed);
  const perUnit = writeJson(unit(rng(99))).length + 4;
  const units: JsonValue[] = [];
  const count = Math.max(1, Math.round(bytes / perUnit));
  for (let i = 0; i < count; i++) units.push(unit(next));
  const lights: JsonValue[] = [];
  for (let i = 0; i < 50; i++) lights.push({ id: guid(next), color: [round(next()), round(next()), round(next())], intensity: round(next() * 10) });
  const spline: JsonValue[] = [];
  for (let i = 0; i < 200; i++) spline.push([round(next() * 100), 0, round(next() * 100)]);
  return {
    name: 'generated',
    settings: { gravity: -9.81, fog: { density: 0.02, color: [0.5, 0.5, 0.6] }, sky: 'day' },
    units,
    lights,
    packages: ['boot', 'level_common', 'props'],
    spline,
  };
}

/** One designer's edit: moves `fraction` of the units, removes and adds a few, tweaks settings. */
export function editLevel(level: JsonObject, seed: number, fraction = 0.01): JsonObject {
  const next = rng(seed);
  const doc = jsonClone(level) as JsonObject;
  const units = doc.units as JsonObject[];
  const edits = Math.max(1, Math.floor(units.length * fraction));
  for (let i = 0; i < edits; i++) {
    const u = units[Math.floor(next() * units.length)]!;
    u.position = [round(next() * 2000 - 1000), round(next() * 100), round(next() * 2000 - 1000)];
  }
  for (let i = 0; i < Math.ceil(edits / 4); i++) units.splice(Math.floor(next() * units.length), 1);
  for (let i = 0; i < Math.ceil(edits / 4); i++) units.splice(Math.floor(next() * units.length), 0, unit(next));
  (doc.settings as JsonObject).sky = seed % 2 === 0 ? 'dusk' : 'night';
  return doc;
}
