// How many count-scan scatter workgroups a GPU runs at once, measured rather than guessed: a
// build of the scatter whose first invocation counts its workgroup in and out on two spare words
// at the end of the scan's status buffer (past what a sort of fewer than maxCount pairs uses),
// keeping the peak. `padBytes` of extra workgroup memory show where the occupancy steps are.
import type { CountScanPasses } from '../src/count-scan-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { countScanPasses } from './count-scan-variant.ts';
import { SortVariant } from './sort-variant.ts';

const RUNNING = 'arrayLength(&scan_status) - 2u';
const PEAK = 'arrayLength(&scan_status) - 1u';
const ENTER = '  let block = block_index(group_id);\n  clear_scan_status(';
const LEAVE = '\n  scatter_held_values(local, real, &ranks, &values, &digits);\n}';

function replaceOnce(source: string, target: string, replacement: string): string {
  const at = source.indexOf(target);
  if (at < 0 || source.includes(target, at + 1)) throw new Error(`occupancy probe: the scatter no longer has exactly one '${target.trim().split('\n')[0]!}'`);
  return source.slice(0, at) + replacement + source.slice(at + target.length);
}

/** The scatter with the probe (and `padBytes` of workgroup memory it touches, so it is kept). */
export function probeSource(source: string, padBytes: number): string {
  const pad = padBytes > 0 ? `\nvar<workgroup> probe_pad: array<u32, ${padBytes / 4}>;\n` : '';
  const touch = padBytes > 0 ? `  probe_pad[local % ${padBytes / 4}u] = local;\n` : '';
  let probed = replaceOnce(source, ENTER, `  if (local == 0u) {\n    atomicMax(&scan_status[${PEAK}], atomicAdd(&scan_status[${RUNNING}], 1u) + 1u);\n  }\n${touch}${ENTER}`);
  probed = replaceOnce(probed, LEAVE, `${LEAVE.slice(0, -1)}  if (local == 0u) {\n    atomicSub(&scan_status[${RUNNING}], 1u);\n  }\n}`);
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
    this.#passes = countScanPasses(device, plan, maxCount, 1, { sourceTransform: (source) => probeSource(source, padBytes) });
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
