// The opaque surfaces lit forward (RendererOptions.opaqueShading 'forward'): a depth prepass, then
// one pass that lights every opaque surface where it is the one the prepass kept (depth compare
// equal), reading the culled tiles in the fragment shader: forward+. Both passes run the G-buffer
// pass's vertex entries (forward.wgsl), so their depths match exactly. The Renderer owns one.
import { skinnedVertexLayouts, type VertexFormat } from '@cuttle/gpu-skinning';
import { drawMeshGroup, drawSkinnedInstances, MESH_VERTEX_BUFFERS } from './draw-group.ts';
import type { DrawGroup } from './draw-lists.ts';
import type { RenderScene, SkinnedDraw } from './scene/render-scene.ts';
import type { SkinnedRaster } from './skinned-raster.ts';

export interface ForwardOpaqueOptions {
  /** The forward module (forward.wgsl's forward_* and prepass_* entries). */
  module: GPUShaderModule;
  layouts: { frame: GPUBindGroupLayout; empty: GPUBindGroupLayout; cull: GPUBindGroupLayout; material: GPUBindGroupLayout };
  depthFormat: GPUTextureFormat;
  motionFormat: GPUTextureFormat;
}

/** What the two passes draw into. */
export interface ForwardTargets {
  depth: GPUTexture;
  hdr: GPUTexture;
  motion: GPUTexture;
}

/** The frame's skinned draws: those drawn as meshes, and those the compute raster took (with it). */
export interface ForwardSkinned {
  hardware: readonly SkinnedDraw[];
  computed: readonly SkinnedDraw[];
  raster: SkinnedRaster;
}

export class ForwardOpaque {
  readonly #device: GPUDevice;
  readonly #options: ForwardOpaqueOptions;
  readonly #pipelines = new Map<string, GPURenderPipeline>();

  constructor(device: GPUDevice, options: ForwardOpaqueOptions) {
    this.#device = device;
    this.#options = options;
  }

  /** The camera's depth: every opaque and masked surface, characters first. */
  prepass(encoder: GPUCommandEncoder, scene: RenderScene, groups: readonly DrawGroup[], targets: ForwardTargets, reversed: boolean, skinned: ForwardSkinned, groups0: { frame: GPUBindGroup; empty: GPUBindGroup }, timestampWrites: object): void {
    const pass = encoder.beginRenderPass({
      label: 'cuttle.render.prepass',
      colorAttachments: [],
      depthStencilAttachment: { view: targets.depth.createView(), depthLoadOp: 'clear', depthClearValue: reversed ? 0 : 1, depthStoreOp: 'store' },
      ...timestampWrites,
    });
    if (skinned.computed.length > 0) skinned.raster.resolveDepth(pass, reversed);
    pass.setBindGroup(0, groups0.frame);
    pass.setBindGroup(1, groups0.empty);
    const variant = (doubleSided: boolean): string => `${doubleSided ? '-double' : ''}${reversed ? '-reversed' : ''}`;
    for (const draw of skinned.hardware) {
      const material = scene.material(draw.material);
      pass.setPipeline(this.#pipeline(`prepass-skinned-${draw.skinning.format}${material.mask ? '-masked' : ''}${variant(material.doubleSided)}`));
      this.#drawSkinned(pass, draw, material.group);
    }
    for (const group of groups) {
      const material = scene.material(group.material);
      pass.setPipeline(this.#pipeline(`prepass${material.mask ? '-masked' : ''}${variant(material.doubleSided)}`));
      drawMeshGroup(pass, scene, group, material.group, 2, true);
    }
    pass.end();
  }

  /** Lights every surface the prepass kept into the HDR target, and writes its motion vector. */
  shade(encoder: GPUCommandEncoder, scene: RenderScene, groups: readonly DrawGroup[], targets: ForwardTargets, skinned: ForwardSkinned, groups0: { frame: GPUBindGroup; cull: GPUBindGroup }, timestampWrites: object): void {
    const cleared = (texture: GPUTexture, a: number): GPURenderPassColorAttachment => ({ view: texture.createView(), loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a }, storeOp: 'store' });
    const pass = encoder.beginRenderPass({
      label: 'cuttle.render.forward-opaque',
      colorAttachments: [cleared(targets.hdr, 1), cleared(targets.motion, 0)],
      depthStencilAttachment: { view: targets.depth.createView(), depthReadOnly: true },
      ...timestampWrites,
    });
    pass.setBindGroup(0, groups0.frame);
    pass.setBindGroup(1, groups0.cull);
    skinned.computed.forEach((draw, d) => {
      pass.setBindGroup(2, scene.material(draw.material).group);
      skinned.raster.resolveForward(pass, d);
    });
    for (const draw of skinned.hardware) {
      const material = scene.material(draw.material);
      pass.setPipeline(this.#pipeline(`shade-skinned-${draw.skinning.format}${material.doubleSided ? '-double' : ''}`));
      this.#drawSkinned(pass, draw, material.group);
    }
    for (const group of groups) {
      const material = scene.material(group.material);
      pass.setPipeline(this.#pipeline(`shade${material.doubleSided ? '-double' : ''}`));
      drawMeshGroup(pass, scene, group, material.group, 2, true);
    }
    pass.end();
  }

  #drawSkinned(pass: GPURenderPassEncoder, draw: SkinnedDraw, materialGroup: GPUBindGroup): void {
    pass.setBindGroup(2, materialGroup);
    draw.skinning.vertexBuffers.forEach((buffer, slot) => { pass.setVertexBuffer(slot, buffer); });
    drawSkinnedInstances(pass, draw);
  }

  /**
   * `prepass[-skinned-<format>][-masked][-double][-reversed]`: depth only (masked surfaces cut
   * out by alpha); `shade[-skinned-<format>][-double]`: lit where the depth is equal.
   */
  #pipeline(name: string): GPURenderPipeline {
    let pipeline = this.#pipelines.get(name);
    if (pipeline) return pipeline;
    const { module, layouts, depthFormat, motionFormat } = this.#options;
    const prepass = name.startsWith('prepass');
    const skinned = name.includes('-skinned-');
    const format = skinned ? (name.split('-')[2] as VertexFormat) : undefined;
    const masked = name.includes('-masked');
    const fragment: GPUFragmentState | undefined = prepass
      ? masked ? { module, entryPoint: skinned ? 'prepass_plain_masked_fragment' : 'prepass_masked_fragment', targets: [] } : undefined
      : { module, entryPoint: skinned ? 'forward_plain_fragment' : 'forward_fragment', targets: [{ format: 'rgba16float' }, { format: motionFormat }] };
    pipeline = this.#device.createRenderPipeline({
      label: `cuttle.render.${name}`,
      layout: this.#device.createPipelineLayout({ bindGroupLayouts: [layouts.frame, prepass ? layouts.empty : layouts.cull, layouts.material] }),
      vertex: format
        ? { module, entryPoint: 'skinned_vertex', buffers: skinnedVertexLayouts(format) }
        : { module, entryPoint: 'mesh_gbuffer_vertex', buffers: [...MESH_VERTEX_BUFFERS] },
      ...(fragment ? { fragment } : {}),
      primitive: { topology: 'triangle-list', cullMode: name.includes('-double') ? 'none' : 'back' },
      depthStencil: prepass
        ? { format: depthFormat, depthWriteEnabled: true, depthCompare: name.endsWith('-reversed') ? 'greater' : 'less' }
        : { format: depthFormat, depthWriteEnabled: false, depthCompare: 'equal' },
    });
    this.#pipelines.set(name, pipeline);
    return pipeline;
  }
}
