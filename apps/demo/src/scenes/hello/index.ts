import { GpuReduce } from '@cuttle/gpu-primitives';
import type { SceneDefinition } from '../../scene-api.ts';
import triangleWgsl from './triangle.wgsl?raw';

export const CLEAR_COLOR = { r: 0.05, g: 0.06, b: 0.09, a: 1 } as const;

/** Sums 1..n on the GPU with @cuttle/gpu-primitives and reports whether it matches n(n+1)/2. */
async function reduceCheck(device: GPUDevice): Promise<string> {
  const n = 100_000;
  const values = new Uint32Array(n);
  for (let i = 0; i < n; i++) values[i] = i + 1;
  const input = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(input, 0, values);
  const reduce = new GpuReduce(device, { op: 'sum', type: 'u32' });
  try {
    const sum = await reduce.reduce(input, n);
    const expected = ((n * (n + 1)) / 2) % 2 ** 32;
    return sum === expected ? `ok (sum of 1..${n} mod 2³² = ${sum})` : `MISMATCH: ${sum}, expected ${expected}`;
  } finally {
    reduce.destroy();
    input.destroy();
  }
}

export const scene: SceneDefinition = {
  id: 'hello',
  title: 'Hello WebGPU',
  package: '@cuttle/gpu-primitives',
  description: 'A spinning triangle and a GPU reduction checked against its closed form.',
  async create({ device, format, panel }) {
    const module = device.createShaderModule({ code: triangleWgsl });
    const pipeline = device.createRenderPipeline({
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format }] },
    });
    const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const bindGroup = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: params } }] });
    const angle = new Float32Array(4);
    const line = document.createElement('p');
    line.textContent = 'GPU reduce: running…';
    panel.append(line);
    const check = await reduceCheck(device);
    line.textContent = `GPU reduce: ${check}`;
    return {
      frame({ time, encoder, target }) {
        angle[0] = time * 0.5;
        device.queue.writeBuffer(params, 0, angle);
        const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target, clearValue: CLEAR_COLOR, loadOp: 'clear', storeOp: 'store' }] });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.draw(3);
        pass.end();
      },
      stats: () => ({ reduce: check.startsWith('ok') ? 'ok' : 'mismatch' }),
      destroy() {
        params.destroy();
      },
    };
  },
};
