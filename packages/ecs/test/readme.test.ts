// The README's examples, run as they are written there.
import { expect, test } from 'vitest';
import { ComponentLibrary, EcsError, loadLibrary, saveLibrary, Scene, SchemaComponentManager, updateTransforms } from '../src/index.ts';

test('README: positions and masses', () => {
  const world = new ComponentLibrary({ seed: 1 }); // seeded: the same ids on every run

  // ComponentManagers: one per component type, registered under a name.
  const positions = world.register('position', new SchemaComponentManager({ x: 'f32', y: 'f32', z: 'f32' }));
  const masses = world.register('mass', new SchemaComponentManager({ value: { type: 'f32', default: 1 } }));

  const entity = world.createEntity();
  expect(positions.contains(entity)).toBe(false);
  positions.create(entity); // returns the new component's row
  expect(positions.contains(entity)).toBe(true);

  const row = masses.create(entity);
  masses.fields.value[row] = 2; // read `fields` after create: growth replaces the arrays

  // A system is a plain loop over typed arrays.
  function updatePositions(p: typeof positions): void {
    const { y } = p.fields;
    for (let i = 0; i < p.count; i++) y[i]! += 1;
  }
  updatePositions(positions);

  // Looking up another component of the same entity: indexOf is the post's GetComponent.
  const { y } = positions.fields;
  const mass = masses.fields.value;
  for (let i = 0; i < positions.count; i++) {
    const m = masses.indexOf(positions.getEntity(i));
    if (m !== -1) y[i]! += 1 / mass[m]!;
  }
  expect(positions.fields.y[0]).toBe(1.5);

  expect(() => positions.create(entity)).toThrow(EcsError); // one component of a type per entity
  world.removeEntity(entity); // from every manager
  expect(positions.count + masses.count).toBe(0);
});

test('README: scene graph and serialization', () => {
  const scene = new Scene({ seed: 7 });
  const sun = scene.createNode({ position: [0, 0, 0] });
  const planet = scene.createNode({ position: [10, 0, 0] });
  const moon = scene.createNode({ position: [12, 0, 0] });
  scene.update(); // transform system, then hierarchy system
  scene.attach(planet, sun); // the child keeps its world placement
  scene.attach(moon, planet);

  // Spin the sun a quarter turn about z: the planet and moon follow.
  const { rotation, dirty } = scene.transforms.fields;
  const s = scene.transforms.indexOf(sun);
  rotation.set([0, 0, Math.SQRT1_2, Math.SQRT1_2], s * 4);
  dirty[s] = 1;
  scene.update();
  const world = scene.transforms.fields.world;
  const m = scene.transforms.indexOf(moon);
  expect(world[m * 16 + 12]).toBeCloseTo(0, 5); // x
  expect(world[m * 16 + 13]).toBeCloseTo(12, 5); // y

  // Save the whole world, then load it twice: each load remaps ids with a fresh seed.
  const archive = saveLibrary(scene.library);
  const copy = new Scene({ seed: 8 });
  const first = loadLibrary(copy.library, archive);
  const second = loadLibrary(copy.library, archive);
  expect(copy.transforms.count).toBe(6);
  expect(first.seed).not.toBe(second.seed);

  // One entity with its children, as a self-contained archive.
  const tree = scene.saveEntityTree(planet);
  const { root } = scene.loadEntityTree(tree);
  expect(scene.subtreeOf(root).length).toBe(2);

  scene.removeEntity(sun, { recursive: true });
  expect(scene.transforms.count).toBe(2); // the loaded planet copy and its moon
  updateTransforms(scene.transforms);
});
