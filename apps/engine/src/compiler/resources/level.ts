// level: placed units with their components → one @cuttle/ecs archive (transform, hierarchy,
// unit, render, light, character, script) plus a small header (sun, camera, fluid pool, title,
// unit ids, and the names behind the resource hashes). Prefabs (units) are baked in, which is
// why a level depends on the units it places.
import { ComponentLibrary, saveLibrary, Scene, SchemaComponentManager } from '@cuttle/ecs';
import { LEVEL_COMPONENTS } from '../../runtime/components.ts';
import { resourceHash, type LevelMeta } from '../../runtime/formats.ts';
import { writeContainer } from '../../runtime/container.ts';
import { validate, type CompileContext } from '../context.ts';
import { LEVEL_SOURCE } from '../schemas.ts';
import { placedUnitContext } from './placed-unit.ts';
import { checkUnit, type UnitSource } from './unit.ts';

export function createLevelLibrary(seed?: number): { scene: Scene; managers: { [K in keyof typeof LEVEL_COMPONENTS]: SchemaComponentManager<(typeof LEVEL_COMPONENTS)[K]['schema']> } } {
  const library = new ComponentLibrary(seed === undefined ? {} : { seed });
  const scene = new Scene({ library });
  const register = <K extends keyof typeof LEVEL_COMPONENTS>(name: K): SchemaComponentManager<(typeof LEVEL_COMPONENTS)[K]['schema']> =>
    library.register(name, new SchemaComponentManager(LEVEL_COMPONENTS[name].schema), { version: LEVEL_COMPONENTS[name].version });
  return { scene, managers: { unit: register('unit'), render: register('render'), light: register('light'), character: register('character'), script: register('script') } };
}

export function compileLevel(ctx: CompileContext): Uint8Array {
  const src = validate(ctx, LEVEL_SOURCE, ctx.document());
  if (src.flow !== undefined) ctx.requireResource('flow', src.flow, ['flow']);
  if (src.font !== undefined) ctx.requireResource('font', src.font, ['font']);
  if (src.title && src.font === undefined) ctx.fail(['title'], 'a title needs a font', 'Add font = "fonts/<name>" to the level');

  const names: Record<string, string> = {};
  // A level names the same few meshes and materials hundreds of times: each is hashed once.
  const hashed = new Map<string, number>();
  const hash = (type: string, name: string): number => {
    const key = `${type}:${name}`;
    let h = hashed.get(key);
    if (h !== undefined) return h;
    h = resourceHash(type, name);
    const known = names[h];
    if (known !== undefined && known !== key) ctx.fail([], `the resource names ${known} and ${key} have the same 32-bit hash`, 'Rename one of the two resources');
    names[h] = key;
    hashed.set(key, h);
    return h;
  };

  // Prefabs, each read (and recorded as an input) once.
  const prefabs = new Map<string, UnitSource>();
  const prefab = (name: string, i: number): UnitSource => {
    let unit = prefabs.get(name);
    if (unit) return unit;
    ctx.requireResource('unit', name, ['units', i, 'unit']);
    const path = `${name}.unit`;
    const bytes = ctx.readInput(path, ['units', i, 'unit']);
    const unitCtx = placedUnitContext(ctx, path, name, bytes, ['units', i, 'unit']);
    unit = checkUnit(unitCtx, unitCtx.document());
    prefabs.set(name, unit);
    return unit;
  };

  const { scene, managers } = createLevelLibrary(1);
  const entities = new Map<string, number>();
  const units: LevelMeta['units'] = [];
  src.units.forEach((placed, i) => {
    if (entities.has(placed.id)) ctx.fail(['units', i, 'id'], `unit id "${placed.id}" is used twice`, 'Give every placed unit its own id');
    const unit = prefab(placed.unit, i);
    const entity = scene.createNode({ position: placed.position ?? [0, 0, 0], rotation: placed.rotation ?? [0, 0, 0, 1], scale: placed.scale ?? [1, 1, 1] });
    entities.set(placed.id, entity);
    const u = managers.unit.create(entity);
    managers.unit.fields.id[u] = units.length;
    managers.unit.fields.prefab[u] = hash('unit', placed.unit);
    units.push({ id: placed.id, unit: placed.unit });
    const material = placed.material ?? unit.material;
    if (placed.material !== undefined) ctx.requireResource('material', placed.material, ['units', i, 'material']);
    if (unit.character) {
      if (unit.mesh === undefined || material === undefined) ctx.fail(['units', i, 'unit'], `${placed.unit} is a character without a mesh and material`, 'Give the unit a skinned mesh and a material');
      const c = managers.character.create(entity);
      const f = managers.character.fields;
      f.mesh[c] = hash('glb', unit.mesh);
      f.material[c] = hash('material', material);
      f.speed[c] = unit.character.speed ?? 1.2;
      f.radius[c] = unit.character.radius ?? 2;
      f.phase[c] = (i * 0.618) % 1;
    } else if (unit.mesh !== undefined) {
      const r = managers.render.create(entity);
      managers.render.fields.mesh[r] = hash('glb', unit.mesh);
      // 0: the mesh's own materials (RENDER_SCHEMA); no material name hashes to it.
      const materialHash = material === undefined ? 0 : hash('material', material);
      if (material !== undefined && materialHash === 0) ctx.fail(['units', i, 'unit'], `the name hash of ${material} is 0, which stands for "the mesh's own materials"`, 'Rename the material');
      managers.render.fields.material[r] = materialHash;
    }
    const light = placed.light ?? unit.light;
    if (light) {
      const l = managers.light.create(entity);
      const f = managers.light.fields;
      f.color.set(light.color ?? unit.light?.color ?? [1, 1, 1], l * 3);
      f.range[l] = light.range ?? unit.light?.range ?? 3;
      f.intensity[l] = light.intensity ?? unit.light?.intensity ?? 1;
    }
    if (unit.flow !== undefined) {
      const s = managers.script.create(entity); // create first: growth replaces the field arrays
      managers.script.fields.flow[s] = hash('flow', unit.flow);
    }
  });
  src.units.forEach((placed, i) => {
    if (placed.parent === undefined) return;
    const parent = entities.get(placed.parent);
    if (parent === undefined) ctx.fail(['units', i, 'parent'], `parent "${placed.parent}" is not a unit of this level`, 'Use the id of another placed unit');
    scene.attach(entities.get(placed.id)!, parent);
  });
  scene.update();

  const meta: LevelMeta = {
    ...(src.flow === undefined ? {} : { flow: src.flow }),
    ...(src.font === undefined ? {} : { font: src.font }),
    ...(src.title ? { title: { text: src.title.text, x: src.title.x ?? 16, y: src.title.y ?? 16, size: src.title.size ?? 24 } } : {}),
    sun: { direction: src.sun?.direction ?? [0.35, -1, 0.45], color: src.sun?.color ?? [1, 0.95, 0.85], intensity: src.sun?.intensity ?? 2.4 },
    camera: src.camera ?? { position: [0, 12, 24], target: [0, 0, 0] },
    ...(src.fluid ? { fluid: { particles: src.fluid.particles, min: src.fluid.min, max: src.fluid.max, color: src.fluid.color ?? [0.15, 0.4, 0.85] } } : {}),
    ...(src.ambient === undefined ? {} : { ambient: src.ambient }),
    units,
    names,
  };
  return writeContainer({ type: 'level', meta, sections: { ecs: new Uint8Array(saveLibrary(scene.library)) } });
}
