// The render pipelines of the built-in passes, by variant name: 'tonemap'; 'shadow-opaque',
// 'shadow-masked', 'skinned-shadow-<format>-<opaque|masked>'; 'shadow-filter' and
// 'transparent-shadow-depth'; and the camera's 'opaque…', 'skinned-opaque-<format>…' and
// 'transparent…' with '-double' (no culling), '-still' (motion left to still_motion), '-glow'
// (emission written) and '-reversed' (reversed-Z) suffixes.
import { skinnedVertexLayouts, type VertexFormat } from '@cuttle/gpu-skinning';
import { MESH_VERTEX_BUFFERS } from '../draw-group.ts';
import type { PipelineSources } from './layouts.ts';
import { DEPTH_FORMAT, MOTION_FORMAT } from './targets.ts';

/** Shadow maps keep both sides and lean their depths away from the light against acne. */
export const SHADOW_CASTING: Pick<GPURenderPipelineDescriptor, 'primitive' | 'depthStencil'> = {
  primitive: { topology: 'triangle-list', cullMode: 'none' },
  depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less', depthBias: 2, depthBiasSlopeScale: 2.5 },
};

export function createPipeline(sources: PipelineSources, name: string): GPURenderPipeline {
  const { device, modules, layouts } = sources;
  const [position, uv] = MESH_VERTEX_BUFFERS as [GPUVertexBufferLayout, GPUVertexBufferLayout];
  if (name === 'tonemap') {
    return device.createRenderPipeline({
      label: 'cuttle.render.tonemap',
      layout: 'auto',
      vertex: { module: modules.tonemap, entryPoint: 'tonemap_vertex' },
      fragment: { module: modules.tonemap, entryPoint: 'tonemap_fragment', targets: [{ format: sources.format }] },
    });
  }
  const depthLayout = device.createPipelineLayout({ bindGroupLayouts: [layouts.depthFrame, layouts.material] });
  if (name.startsWith('skinned-shadow')) {
    const format = name.split('-')[2] as VertexFormat;
    const masked = name.includes('masked');
    const skinnedPosition: GPUVertexBufferLayout = { arrayStride: skinnedVertexLayouts(format)[0]!.arrayStride, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] };
    return device.createRenderPipeline({
      label: `cuttle.render.${name}`,
      layout: depthLayout,
      vertex: { module: modules.depth, entryPoint: 'skinned_depth_vertex', buffers: [skinnedPosition] },
      ...(masked ? { fragment: { module: modules.depth, entryPoint: 'depth_masked', targets: [] } } : {}),
      ...SHADOW_CASTING,
    });
  }
  if (name === 'shadow-opaque' || name === 'shadow-masked') {
    return device.createRenderPipeline({
      label: `cuttle.render.${name}`,
      layout: depthLayout,
      vertex: { module: modules.depth, entryPoint: 'depth_vertex', buffers: [position, uv] },
      ...(name === 'shadow-masked' ? { fragment: { module: modules.depth, entryPoint: 'depth_masked', targets: [] } } : {}),
      ...SHADOW_CASTING,
    });
  }
  if (name === 'shadow-filter' || name === 'transparent-shadow-depth') {
    const filter = name === 'shadow-filter';
    return device.createRenderPipeline({
      label: `cuttle.render.${name}`,
      layout: depthLayout,
      vertex: { module: modules.depth, entryPoint: 'depth_vertex', buffers: [position, uv] },
      ...(filter
        ? {
            fragment: {
              module: modules.depth,
              entryPoint: 'shadow_filter',
              // Colour multiplied in (any order gives the same product); caustics added in alpha.
              targets: [{ format: 'rgba8unorm', blend: { color: { srcFactor: 'dst', dstFactor: 'zero' }, alpha: { srcFactor: 'one', dstFactor: 'one' } } }],
            },
          }
        : {}),
      primitive: { topology: 'triangle-list', cullMode: 'none' },
      depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: !filter, depthCompare: 'less', ...(filter ? {} : { depthBias: 2, depthBiasSlopeScale: 2.5 }) },
    });
  }
  const skinned = name.startsWith('skinned-opaque');
  const transparent = name.startsWith('transparent');
  const still = name.includes('-still');
  return device.createRenderPipeline({
    label: `cuttle.render.${name}`,
    layout: device.createPipelineLayout({ bindGroupLayouts: [layouts.frame, transparent ? layouts.cull : layouts.empty, layouts.material] }),
    vertex: skinned
      ? { module: modules.forward, entryPoint: 'skinned_vertex', buffers: skinnedVertexLayouts(name.split('-')[2] as VertexFormat) }
      : { module: modules.forward, entryPoint: transparent ? 'mesh_vertex' : 'mesh_gbuffer_vertex', buffers: [...MESH_VERTEX_BUFFERS] },
    fragment: transparent
      ? {
          module: modules.forward,
          entryPoint: 'transparent_fragment',
          // Transparents leave the motion vectors to the surfaces behind them.
          targets: [{ format: 'rgba16float', blend: { color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' } } }],
        }
      : {
          module: modules.forward,
          // Skinned surfaces hand over fewer interpolants (no uvs or tangents): their own fragment entry.
          entryPoint: `gbuffer${skinned ? '_plain' : ''}${still ? '_still' : ''}${name.includes('-glow') ? '_glow' : ''}_fragment`,
          // Still surfaces leave the motion target alone (still_motion fills it in).
          targets: [{ format: 'rg32uint' }, { format: MOTION_FORMAT, writeMask: still ? 0 : GPUColorWrite.ALL }, ...(name.includes('-glow') ? [{ format: 'rgba16float' as const }] : [])],
        },
    // Skinned meshes follow their material like the rest (glTF: counter-clockwise fronts).
    primitive: { topology: 'triangle-list', cullMode: name.includes('-double') ? 'none' : 'back' },
    // The G-buffer pass writes the camera's depth; transparents test against it.
    depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: !transparent, depthCompare: name.endsWith('-reversed') ? 'greater' : 'less' },
  });
}
