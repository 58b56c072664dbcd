import type { SceneDefinition } from '../../scene-api.ts';
import { reduceCheck, scanCheck, sortCheck } from './primitives-check.ts';
import triangleWgsl from './triangle.wgsl?raw';

export const CLEAR_COLOR = { r: 0.05, g: 0.06, b: 0.09, a: 1 } as const;

export const scene: SceneDefinition = {
  id: 'hello',
  title: 'Hello WebGPU',
  package: '@cuttle/gpu-primitives',
  description: 'A spinning triangle, and a GPU reduction, scan and radix sort checked against their references.',
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
    const line = (text: string): HTMLParagraphElement => {
      const p = document.createElement('p');
      p.textContent = text;
      panel.append(p);
      return p;
    };
    const reduceLine = line('GPU reduce: running…');
    const check = await reduceCheck(device);
    reduceLine.textContent = `GPU reduce: ${check}`;
    // The scan and the sort run the subgroup kernels when the browser's device has subgroups.
    const scanLine = line('GPU scan: running…');
    const scanResult = await scanCheck(device);
    scanLine.textContent = `GPU scan: ${scanResult}`;
    const sortLine = line('GPU sort: running…');
    const sortResult = await sortCheck(device);
    sortLine.textContent = `GPU sort: ${sortResult}`;
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
      stats: () => ({
        reduce: check.startsWith('ok') ? 'ok' : 'mismatch',
        scan: scanResult.startsWith('ok') ? 'ok' : 'mismatch',
        sort: sortResult.startsWith('ok') ? 'ok' : 'mismatch',
      }),
      destroy() {
        params.destroy();
      },
    };
  },
};
