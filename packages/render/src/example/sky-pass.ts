// A user pass, as a compute pass writing the HDR target: a sky gradient wherever nothing was
// drawn (the depth still holds its clear value), after the lighting and before the transparents,
// so glass in front of the sky blends over it. It reads 'depth' and writes 'hdr'.
// Add it with renderer.addPass(skyPass(device)).
import { resolveCamera } from '@cuttle/gpu-culling';
import { RESOURCES } from '../frame/targets.ts';
import type { UserPass } from '../frame/user-pass.ts';
import { multiplyMat4 } from '../shadow-views.ts';
import { IDENTITY, invert4 } from '../ssao/matrix.ts';

/** Options of the example sky pass (a gradient where no surface was drawn); every one has a default. */
export interface SkyOptions {
  /** Linear HDR colour straight up (default a deep blue). */
  zenith?: readonly [number, number, number];
  /** At the horizon (default a pale haze). */
  horizon?: readonly [number, number, number];
  /** Below the horizon (default a dark ground). */
  ground?: readonly [number, number, number];
  /** Pass name (default 'sky'). */
  name?: string;
}

const SKY_WGSL = /* wgsl */ `
struct Sky {
  world_from_clip: mat4x4f,
  zenith: vec4f,
  horizon: vec4f,
  ground: vec4f,
  // xyz: the camera's position; w: the depth's clear value (0 reversed-Z, 1 otherwise)
  eye_clear: vec4f,
}
@group(0) @binding(0) var depth_map: texture_depth_2d;
@group(0) @binding(1) var hdr: texture_storage_2d<rgba16float, write>;
@group(0) @binding(2) var<uniform> sky: Sky;

@compute @workgroup_size(8, 8) fn sky_main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(depth_map);
  if (id.x >= size.x || id.y >= size.y) { return; }
  if (textureLoad(depth_map, id.xy, 0) != sky.eye_clear.w) { return; }
  let ndc = vec2f((f32(id.x) + 0.5) / f32(size.x) * 2.0 - 1.0, 1.0 - (f32(id.y) + 0.5) / f32(size.y) * 2.0);
  let point = sky.world_from_clip * vec4f(ndc, 0.5, 1.0);
  let direction = normalize(point.xyz / point.w - sky.eye_clear.xyz);
  let up = clamp(direction.y, -1.0, 1.0);
  let colour = select(mix(sky.horizon.rgb, sky.ground.rgb, sqrt(-up)), mix(sky.horizon.rgb, sky.zenith.rgb, sqrt(up)), up >= 0.0);
  textureStore(hdr, id.xy, vec4f(colour, 1.0));
}
`;

/** The sky as a compute user pass at 'after-lighting'. */
export function skyPass(device: GPUDevice, options: SkyOptions = {}): UserPass & { destroy(): void } {
  const uniform = device.createBuffer({ label: 'cuttle.render.example.sky', size: 128, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const pipeline = device.createComputePipeline({ label: 'cuttle.render.example.sky', layout: 'auto', compute: { module: device.createShaderModule({ label: 'cuttle.render.example.sky', code: SKY_WGSL }), entryPoint: 'sky_main' } });
  const groups = new WeakMap<GPUTexture, WeakMap<GPUTexture, GPUBindGroup>>();
  const colours = [options.zenith ?? [0.18, 0.32, 0.7], options.horizon ?? [0.75, 0.8, 0.85], options.ground ?? [0.12, 0.11, 0.1]];
  return {
    name: options.name ?? 'sky',
    point: 'after-lighting',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }],
    writes: [{ resource: RESOURCES.hdr, use: 'storage' }],
    execute: ({ encoder, texture, camera, width, height }) => {
      const resolved = resolveCamera(camera);
      const data = new Float32Array(32);
      data.set(invert4(multiplyMat4(camera.projection, camera.view)) ?? IDENTITY, 0);
      colours.forEach((colour, k) => { data.set([...colour, 1], 16 + k * 4); });
      data.set([...resolved.position, resolved.reversedZ ? 0 : 1], 28);
      device.queue.writeBuffer(uniform, 0, data);
      const depth = texture(RESOURCES.depth), hdr = texture(RESOURCES.hdr);
      const byHdr = groups.get(depth) ?? new WeakMap<GPUTexture, GPUBindGroup>();
      groups.set(depth, byHdr);
      let group = byHdr.get(hdr);
      if (!group) {
        group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: depth.createView() }, { binding: 1, resource: hdr.createView() }, { binding: 2, resource: { buffer: uniform } }] });
        byHdr.set(hdr, group);
      }
      const pass = encoder.beginComputePass({ label: 'cuttle.render.example.sky' });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(Math.ceil(width / 8), Math.ceil(height / 8));
      pass.end();
    },
    destroy: () => { uniform.destroy(); },
  };
}
