// A user pass, as a post effect after tone mapping: outlines where the depth jumps (silhouettes)
// or bends (creases, where the surface's normal turns), blended over the frame. It reads the
// frame graph's 'depth' and draws into 'target'. Add it with renderer.addPass(outlinePass(device)).
import { RESOURCES } from '../frame/targets.ts';
import type { UserPass } from '../frame/user-pass.ts';

/** Options of the example outline pass (a post effect after tone mapping); every one has a default. */
export interface OutlineOptions {
  /** Outline colour, linear 0..1 (default black). */
  color?: readonly [number, number, number];
  /** Opacity of the outline (default 0.85). */
  strength?: number;
  /** Relative depth jump that makes a silhouette (default 0.06: 6% farther than the pixel). */
  silhouette?: number;
  /** Relative bend of the depth (second difference) that makes a crease (default 0.015). */
  crease?: number;
  /** Pass name (default 'outline'). */
  name?: string;
}

const OUTLINE_WGSL = /* wgsl */ `
struct Outline {
  color: vec4f,
  // x: strength, y: silhouette threshold, z: crease threshold, w: unused
  settings: vec4f,
  // The projection's [2][2] and [3][2]: view distance = p32 / (depth + p22), any depth convention.
  p22: f32,
  p32: f32,
}
@group(0) @binding(0) var depth_map: texture_depth_2d;
@group(0) @binding(1) var<uniform> outline: Outline;

@vertex fn outline_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let corner = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
}

fn distance_at(p: vec2i) -> f32 {
  let size = vec2i(textureDimensions(depth_map));
  let depth = textureLoad(depth_map, clamp(p, vec2i(0), size - 1), 0);
  // Where nothing was drawn the distance is infinite (reversed-Z): a large finite stand-in.
  return min(outline.p32 / max(depth + outline.p22, 1e-9), 1e6);
}

@fragment fn outline_fragment(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let p = vec2i(position.xy);
  let c = distance_at(p);
  let l = distance_at(p - vec2i(1, 0));
  let r = distance_at(p + vec2i(1, 0));
  let u = distance_at(p - vec2i(0, 1));
  let d = distance_at(p + vec2i(0, 1));
  // Silhouette: a neighbour much farther (only the near side of the jump is outlined).
  let jump = max(max(l, r), max(u, d)) - c;
  // Crease: the depth's second difference, large where the surface turns.
  let bend = max(abs(l + r - 2.0 * c), abs(u + d - 2.0 * c));
  let edge = max(step(outline.settings.y, jump / c), step(outline.settings.z, bend / c));
  return vec4f(outline.color.rgb, edge * outline.settings.x);
}
`;

/** The outline post effect as a user pass at 'after-tonemap'. */
export function outlinePass(device: GPUDevice, options: OutlineOptions = {}): UserPass & { destroy(): void } {
  const uniform = device.createBuffer({ label: 'cuttle.render.example.outline', size: 48, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const module = device.createShaderModule({ label: 'cuttle.render.example.outline', code: OUTLINE_WGSL });
  const pipelines = new Map<GPUTextureFormat, GPURenderPipeline>();
  const groups = new WeakMap<GPUTexture, GPUBindGroup>();
  const [r, g, b] = options.color ?? [0, 0, 0];
  const settings = [options.strength ?? 0.85, options.silhouette ?? 0.06, options.crease ?? 0.015, 0];
  return {
    name: options.name ?? 'outline',
    point: 'after-tonemap',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }],
    writes: [{ resource: RESOURCES.target, use: 'attachment' }],
    execute: ({ encoder, texture, camera, targetView, format }) => {
      let pipeline = pipelines.get(format);
      if (!pipeline) {
        pipeline = device.createRenderPipeline({
          label: 'cuttle.render.example.outline',
          layout: 'auto',
          vertex: { module, entryPoint: 'outline_vertex' },
          fragment: { module, entryPoint: 'outline_fragment', targets: [{ format, blend: { color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'zero', dstFactor: 'one' } } }] },
        });
        pipelines.set(format, pipeline);
      }
      device.queue.writeBuffer(uniform, 0, new Float32Array([r, g, b, 1, ...settings, camera.projection[10]!, camera.projection[14]!, 0, 0]));
      const depth = texture(RESOURCES.depth);
      let group = groups.get(depth);
      if (!group) {
        group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: depth.createView() }, { binding: 1, resource: { buffer: uniform } }] });
        groups.set(depth, group);
      }
      const pass = encoder.beginRenderPass({ label: 'cuttle.render.example.outline', colorAttachments: [{ view: targetView, loadOp: 'load', storeOp: 'store' }] });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.draw(3);
      pass.end();
    },
    destroy: () => { uniform.destroy(); },
  };
}
