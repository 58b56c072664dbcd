// Draw calls the built-in passes share: mesh groups, one draw per transparent instance, the
// shadow casters of a layer, and the skinned characters drawn as meshes.
import { drawMeshGroup, drawSkinnedInstances } from '../draw-group.ts';
import type { DrawGroup } from '../draw-lists.ts';
import type { RenderScene, SkinnedDraw } from '../scene/render-scene.ts';
import type { RendererCore } from './core.ts';

/** A mesh group's draw; `forward`: the camera's passes (material in group 2), else a depth-only pass (group 1). */
export function drawGroup(pass: GPURenderPassEncoder, scene: RenderScene, group: DrawGroup, materialGroup: GPUBindGroup, forward: boolean): void {
  drawMeshGroup(pass, scene, group, materialGroup, forward ? 2 : 1, forward);
}

/** One draw per instance (transparents), starting at draw slot `first`, in a depth-only pass. */
export function drawEach(core: RendererCore, pass: GPURenderPassEncoder, scene: RenderScene, instances: readonly number[], first: number, pipeline: GPURenderPipeline, viewOffset: number): void {
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, core.depthGroup(), [viewOffset]);
  instances.forEach((instance, k) => {
    const material = scene.material(scene.instanceMaterial(instance));
    drawGroup(pass, scene, { mesh: scene.instanceMesh(instance), material: material.id, first: first + k, count: 1 }, material.group, false);
  });
}

/** Opaque and masked groups into a shadow layer's depth (the layer's view at `viewOffset`). */
export function drawShadowCasters(core: RendererCore, pass: GPURenderPassEncoder, scene: RenderScene, groups: readonly DrawGroup[], viewOffset: number): void {
  pass.setBindGroup(0, core.depthGroup(), [viewOffset]);
  for (const group of groups) {
    const material = scene.material(group.material);
    pass.setPipeline(core.pipeline(`shadow-${material.mask ? 'masked' : 'opaque'}`));
    drawGroup(pass, scene, group, material.group, false);
  }
}

/** Skinned characters (but those in `computed`) into a shadow layer (its view at `viewOffset`) or the G-buffer pass. */
export function drawSkinned(core: RendererCore, pass: GPURenderPassEncoder, scene: RenderScene, kind: 'shadow' | 'opaque', reversed: boolean, viewOffset: number, computed: readonly SkinnedDraw[], glow = false): void {
  for (const draw of scene.skinned) {
    if (computed.includes(draw)) continue;
    const material = scene.material(draw.material);
    const format = draw.skinning.format;
    if (kind === 'opaque') {
      pass.setPipeline(core.pipeline(`skinned-opaque-${format}${material.doubleSided ? '-double' : ''}${glow ? '-glow' : ''}${reversed ? '-reversed' : ''}`));
      pass.setBindGroup(2, material.group);
      draw.skinning.vertexBuffers.forEach((buffer, slot) => { pass.setVertexBuffer(slot, buffer); });
    } else {
      pass.setPipeline(core.pipeline(`skinned-shadow-${format}-${material.mask ? 'masked' : 'opaque'}`));
      pass.setBindGroup(0, core.depthGroup(), [viewOffset]);
      pass.setBindGroup(1, material.group);
      pass.setVertexBuffer(0, draw.skinning.vertexBuffers[0]);
    }
    drawSkinnedInstances(pass, draw);
  }
}
