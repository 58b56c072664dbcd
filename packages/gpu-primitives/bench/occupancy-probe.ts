// How many count-scan scatter workgroups a GPU runs at once, measured rather than guessed: a
// build of the scatter whose first invocation counts its workgroup in and out on two spare words
// at the end of the scan's status buffer (past what a sort of fewer than maxCount pairs uses),
// keeping the peak. `padBytes` of extra workgroup memory show where the occupancy steps are.
import type { CountScanPasses } from '../src/count-scan-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { countScanPasses } from './count-scan-variant.ts';
import { SortVariant } from './sort-variant.ts';
import { editFunction, replaceOnce } from './wgsl-edit.ts';

const RUNNING = 'arrayLength(&scan_status) - 2u';
const PEAK = 'arrayLength(&scan_status) - 1u';
const ENTER = '  clear_scan_status(';
const WHAT = 'occupancy probe';

/**
 * The scatter entry point `entry` with the probe (and `padBytes` of workgroup memory it
 * touches, so it is kept): counted in before it zeroes the scan status, out at its end.
 */
export function probeSource(source: string, padBytes: number, entry = 'scatter'): string {
  const pad = padBytes > 0 ? `\nvar<workgroup> probe_pad: array<u32, ${padBytes / 4}>;\n` : '';
  const touch = padBytes > 0 ? `  probe_pad[local % ${padBytes / 4}u] = local;\n` : '';
  const probed = editFunction(source, entry, (text) => {
    const counted = replaceOnce(text, ENTER, `  if (local == 0u) {\n    atomicMax(&scan_status[${PEAK}], atomicAdd(&scan_status[${RUNNING}], 1u) + 1u);\n  }\n${touch}${ENTER}`, WHAT);
    if (!counted.endsWith('\n}\n')) throw new Error(`${WHAT}: '${entry}' does not end with a closing brace on its own line`);
    return `${counted.slice(0, -2)}  if (local == 0u) {\n    atomicSub(&scan_status[${RUNNING}], 1u);\n  }\n}\n`;
  }, WHAT);
  return probed + pad; // appended: `enable` must stay first
}

export class OccupancyProbe {
  readonly variant: SortVariant;
  readonly #device: GPUDevice;
  readonly #passes: CountScanPasses;
  readonly #readback: GPUBuffer;

  /** `maxCount` must exceed the sorts probed, so that their scans leave the last two status words alone. */
  constructor(device: GPUDevice, plan: RadixPlan, maxCount: number, padBytes: number) {
    this.#device = device;
    const entry = (plan.tileRounds ?? 1) > 1 ? 'scatter_rounds' : 'scatter';
    this.#passes = countScanPasses(device, plan, maxCount, 1, { sourceTransform: (source) => probeSource(source, padBytes, entry) });
    this.variant = new SortVariant(device, `cuttle.bench.occupancy-probe-${padBytes}`, this.#passes, maxCount, 1);
    this.#readback = device.createBuffer({ size: 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /** The peak number of scatter workgroups running at once over the sort `record` encodes (it calls `variant.encode`). */
  async peak(record: (encoder: GPUCommandEncoder) => void): Promise<number> {
    const status = this.#passes.scanStatus;
    const encoder = this.#device.createCommandEncoder();
    encoder.clearBuffer(status, status.size - 8, 8);
    record(encoder);
    encoder.copyBufferToBuffer(status, status.size - 8, this.#readback, 0, 8);
    this.#device.queue.submit([encoder.finish()]);
    await this.#readback.mapAsync(GPUMapMode.READ);
    const [running, peak] = new Uint32Array(this.#readback.getMappedRange().slice(0));
    this.#readback.unmap();
    if (running !== 0) throw new Error(`occupancy probe: ${running} workgroups never counted out`);
    return peak!;
  }

  destroy(): void {
    this.variant.destroy();
    this.#readback.destroy();
  }
}
