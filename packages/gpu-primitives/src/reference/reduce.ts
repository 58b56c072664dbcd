// The plain TypeScript version of shaders/reduce.wgsl: the same grid-stride slices, the same
// tree order inside each workgroup, the same two passes, with f32 rounding after every
// operation. On an IEEE-conforming device the GPU result equals this one bit for bit.
import { WORKGROUP_SIZE, type ElementType, type ReduceOp, type TypedArrayFor } from '../api.ts';
import { reduceWorkgroupCount } from '../reduce-plan.ts';

type Combine = (a: number, b: number) => number;

function combiner(op: ReduceOp, type: ElementType): Combine {
  if (op === 'min') return (a, b) => (b < a ? b : a);
  if (op === 'max') return (a, b) => (b > a ? b : a);
  if (type === 'f32') return (a, b) => Math.fround(a + b);
  if (type === 'u32') return (a, b) => (a + b) >>> 0;
  return (a, b) => (a + b) | 0;
}

function identity(op: ReduceOp, type: ElementType): number {
  if (op === 'sum') return 0;
  const extremes = { f32: [-3.4028234663852886e38, 3.4028234663852886e38], u32: [0, 4294967295], i32: [-2147483648, 2147483647] };
  const [lowest, highest] = extremes[type];
  return op === 'min' ? highest! : lowest!;
}

/** One dispatch of the reduce kernel over `input`, giving one partial per workgroup. */
function reducePass(input: ArrayLike<number>, workgroups: number, combine: Combine, start: number): number[] {
  const stride = workgroups * WORKGROUP_SIZE;
  const partials: number[] = [];
  const scratch = new Float64Array(WORKGROUP_SIZE);
  for (let group = 0; group < workgroups; group++) {
    for (let local = 0; local < WORKGROUP_SIZE; local++) {
      let acc = start;
      let i = group * WORKGROUP_SIZE + local;
      for (; i + 3 * stride < input.length; i += 4 * stride) {
        const pair1 = combine(input[i]!, input[i + stride]!);
        const pair2 = combine(input[i + 2 * stride]!, input[i + 3 * stride]!);
        acc = combine(acc, combine(pair1, pair2));
      }
      for (; i < input.length; i += stride) acc = combine(acc, input[i]!);
      scratch[local] = acc;
    }
    for (let half = WORKGROUP_SIZE / 2; half > 0; half >>= 1) {
      for (let local = 0; local < half; local++) scratch[local] = combine(scratch[local]!, scratch[local + half]!);
    }
    partials.push(scratch[0]!);
  }
  return partials;
}

/** Reduces `input` exactly as GpuReduce does on the GPU. */
export function reduceReference<T extends ElementType>(input: TypedArrayFor<T>, op: ReduceOp, type: T): number {
  const combine = combiner(op, type);
  const start = identity(op, type);
  const partials = reducePass(input, reduceWorkgroupCount(input.length), combine, start);
  return reducePass(partials, 1, combine, start)[0]!;
}
