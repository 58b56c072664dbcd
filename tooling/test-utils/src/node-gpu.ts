// WebGPU in Node through Dawn's addon (the `webgpu` npm package). On the GPU machine there is
// no node_modules: CUTTLE_DAWN names dawn.node directly (see shared/device/README.md).
import { createRequire } from 'node:module';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

/** What `describeAdapter` reports: the fields of GPUAdapterInfo worth printing. */
export interface AdapterDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** One line for logs, e.g. `mesa / llvmpipe (LLVM 19.1.7, 256 bits)`. */
  summary: string;
}

/** Thrown when Dawn loads but offers no adapter; the message says how to get one. */
export class NoGpuAdapterError extends Error {
  override readonly name = 'NoGpuAdapterError';
}

export const NO_ADAPTER_HELP = [
  'No WebGPU adapter: Dawn found no Vulkan driver on this machine.',
  '  Debian/Ubuntu, as root: `bash tooling/scripts/setup.sh` installs Mesa lavapipe 25.x',
  '    (Debian bookworm: mesa-vulkan-drivers from bookworm-backports; bookworm\'s own 22.x is too old for Dawn).',
  '  Elsewhere: install a Vulkan driver (a GPU vendor driver, or Mesa >= 25 lavapipe) and its loader (libvulkan1).',
  '  To run everything except the GPU tests: CUTTLE_GPU_TESTS=skip.',
].join('\n');

let dawn: DawnModule | undefined;
// Dawn tears its instance down when the GPU object is garbage-collected, even while devices
// made from it still run work (the process then aborts), so the process keeps one for good.
let gpuInstance: GPU | undefined;

/** Loads Dawn once per process and installs its globals (GPUBufferUsage, GPUMapMode, ...). */
export function loadDawn(): DawnModule {
  if (dawn) return dawn;
  const require = createRequire(import.meta.url);
  const path = process.env.CUTTLE_DAWN;
  dawn = (path ? require(path) : require('webgpu')) as DawnModule;
  Object.assign(globalThis, dawn.globals);
  return dawn;
}

export function describeAdapter(adapter: GPUAdapter): AdapterDescription {
  const { vendor, architecture, device, description } = adapter.info;
  const name = [device, description].filter((part) => part.length > 0).join(' ');
  return { vendor, architecture, device, description, summary: `${vendor || 'unknown vendor'} / ${name || architecture || 'unknown device'}` };
}

/**
 * Dawn's flags for tests and benchmarks. Dawn rounds timestamp queries down to multiples of
 * 65,536 ns by default (a browser's defence against timing attacks), which made every GPU time
 * of a benchmark a whole number of 65.5 µs steps; measuring our own kernels needs the raw ones.
 */
export const DAWN_FLAGS = ['disable-dawn-features=timestamp_quantization'] as const;

/**
 * More Dawn flags from CUTTLE_DAWN_FLAGS, separated by whitespace, for experiments on the GPU
 * machine (e.g. `enable-dawn-features=disable_robustness` to see what bounds checks cost); each
 * must be a `name=value` flag as Dawn's node bindings take them.
 */
export function extraDawnFlags(env: string | undefined = process.env.CUTTLE_DAWN_FLAGS): string[] {
  const flags = (env ?? '').split(/\s+/).filter((flag) => flag.length > 0);
  for (const flag of flags) {
    if (!/^[a-z-]+=[A-Za-z0-9_,]+$/.test(flag)) throw new Error(`CUTTLE_DAWN_FLAGS: "${flag}" is not a name=value Dawn flag (e.g. enable-dawn-features=disable_robustness).`);
  }
  return flags;
}

/**
 * Flags with one name merged into one (Dawn keeps only the last of a name, so a second
 * `disable-dawn-features=` would otherwise bring timestamp quantization back).
 */
export function mergeDawnFlags(flags: readonly string[]): string[] {
  const merged = new Map<string, string[]>();
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const name = flag.slice(0, at);
    const values = merged.get(name) ?? [];
    for (const value of flag.slice(at + 1).split(',')) if (!values.includes(value)) values.push(value);
    merged.set(name, values);
  }
  return [...merged].map(([name, values]) => `${name}=${values.join(',')}`);
}

/** The process-wide Dawn GPU object (navigator.gpu's equivalent). */
export function nodeGpu(): GPU {
  gpuInstance ??= loadDawn().create(mergeDawnFlags([...DAWN_FLAGS, ...extraDawnFlags()]));
  return gpuInstance;
}

export interface NodeGpu {
  adapter: GPUAdapter;
  device: GPUDevice;
  info: AdapterDescription;
  hasTimestamps: boolean;
}

export interface NodeGpuOptions {
  powerPreference?: GPUPowerPreference;
  /** Ask for `timestamp-query` when the adapter has it (default true). */
  timestamps?: boolean;
  /** Ask for `subgroups` when the adapter has it (default true). */
  subgroups?: boolean;
  /** Ask for the texture-compression features (BC, ETC2, ASTC) the adapter has (default true). */
  textureCompression?: boolean;
  /** Raise these limits to the adapter's maximum (default: buffer sizes and workgroup storage). */
  maxLimits?: readonly (keyof GPUSupportedLimits)[];
}

const TEXTURE_COMPRESSION = ['texture-compression-bc', 'texture-compression-etc2', 'texture-compression-astc'] as const satisfies readonly GPUFeatureName[];

const DEFAULT_MAX_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxStorageBuffersPerShaderStage',
] as const satisfies readonly (keyof GPUSupportedLimits)[];

/** Requests an adapter and a device with raised limits. Throws NoGpuAdapterError with setup help. */
export async function requestNodeGpu(options: NodeGpuOptions = {}): Promise<NodeGpu> {
  const adapter = await nodeGpu().requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  if (!adapter) throw new NoGpuAdapterError(NO_ADAPTER_HELP);
  const hasTimestamps = (options.timestamps ?? true) && adapter.features.has('timestamp-query');
  const requiredLimits: Record<string, number> = {};
  for (const key of options.maxLimits ?? DEFAULT_MAX_LIMITS) {
    const value = adapter.limits[key];
    if (typeof value === 'number') requiredLimits[key] = value;
  }
  const features: GPUFeatureName[] = [];
  if (hasTimestamps) features.push('timestamp-query');
  if ((options.subgroups ?? true) && adapter.features.has('subgroups')) features.push('subgroups');
  if (options.textureCompression ?? true) {
    for (const feature of TEXTURE_COMPRESSION) if (adapter.features.has(feature)) features.push(feature);
  }
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits,
  });
  return { adapter, device, info: describeAdapter(adapter), hasTimestamps };
}
