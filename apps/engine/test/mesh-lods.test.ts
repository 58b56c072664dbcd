// Levels of detail the compiler makes for static meshes: fewer triangles each, over the same
// vertices, with a growing geometric error that bounds how far each strays from the full mesh;
// small meshes get none; the engine hands them to the renderer, which draws fewer indices far off.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sphereMesh } from '@cuttle/render';
import { buildMeshLods, LOD_MIN_TRIANGLES } from '../src/compiler/mesh-lods.ts';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readContainer, section } from '../src/runtime/container.ts';
import type { MeshMeta } from '../src/runtime/formats.ts';
import { readFileSync } from 'node:fs';
import { staticGlb } from '../sample-tools/gltf-writers.ts';
import { scratchProject, type Scratch } from './helpers.ts';
import { hausdorffFromFull } from './mesh-distance.ts';

describe('mesh levels of detail', () => {
  test('each level has fewer triangles over the same vertices, and its error bounds how far it strays', async () => {
    const sphere = sphereMesh(1, 24, 48);
    const lods = await buildMeshLods(new Uint32Array(sphere.indices), sphere.positions, sphere.normals, sphere.uvs!);
    expect(lods.length).toBeGreaterThanOrEqual(2);
    let triangles = sphere.indices.length / 3;
    let error = 0;
    for (const lod of lods) {
      expect(lod.indices.length % 3).toBe(0);
      expect(lod.indices.length / 3).toBeLessThan(triangles * 0.8);
      expect(Math.max(...lod.indices)).toBeLessThan(sphere.positions.length / 3);
      expect(lod.error).toBeGreaterThanOrEqual(error);
      // The simplifier's error estimates (from quadrics, not exactly) how far the simplified surface
      // lies from the full one. Measured at the full mesh's vertices it came out up to 1.53x the
      // estimate on this sphere: the renderer's 1 px may be 1.5 px. Held here to 2x.
      expect(hausdorffFromFull(sphere.positions, lod.indices), `error ${lod.error}`).toBeLessThanOrEqual(lod.error * 2);
      triangles = lod.indices.length / 3;
      error = lod.error;
    }
    // Coarse enough to matter: the last level has at most a quarter of the triangles.
    expect(triangles).toBeLessThanOrEqual(sphere.indices.length / 3 / 4);
  });

  test('small meshes get no levels', async () => {
    const small = sphereMesh(1, 8, 12);
    expect(small.indices.length / 3).toBeLessThan(LOD_MIN_TRIANGLES);
    expect(await buildMeshLods(new Uint32Array(small.indices), small.positions, small.normals, small.uvs!)).toEqual([]);
  });

  describe('compiled', () => {
    let project: Scratch;
    beforeEach(() => {
      project = scratchProject();
    });
    afterEach(() => {
      project.dispose();
    });

    test('a dense GLB compiles with its levels as sections; the sample\'s small meshes with none', async () => {
      writeFileSync(join(project.source, 'meshes/ball.glb'), await staticGlb({ mesh: sphereMesh(1, 24, 48) }));
      const report = await compileProject(project.source, project.out);
      expect(report.failed).toEqual([]);
      const ball = readContainer<MeshMeta>(readFileSync(join(project.out, 'meshes/ball.glb.cr')), 'mesh');
      if (ball.meta.kind !== 'static') throw new Error('expected a static mesh');
      const { groups } = ball.meta;
      expect(groups.length).toBe(1);
      const { lods } = groups[0]!;
      expect(lods.length).toBeGreaterThanOrEqual(2);
      // The levels lie one after another in the `lods` section, finest first.
      const all = section(ball, 'lods', Uint32Array);
      expect(all.length).toBe(lods.reduce((n, lod) => n + lod.indexCount, 0));
      lods.forEach((lod, l) => {
        expect(lod.firstIndex).toBe(lods.slice(0, l).reduce((n, x) => n + x.indexCount, 0));
        expect(lod.indexCount).toBeLessThan(l === 0 ? groups[0]!.indexCount : lods[l - 1]!.indexCount);
      });
      const crate = readContainer<MeshMeta>(readFileSync(join(project.out, 'meshes/crate.glb.cr')), 'mesh');
      expect(crate.meta.kind === 'static' && crate.meta.groups.map((g) => g.lods)).toEqual([[]]);
      expect(crate.sections.has('lods')).toBe(false);
    });
  });
});
