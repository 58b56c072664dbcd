import { MAX_REDUCE_WORKGROUPS, WORKGROUP_SIZE } from './api.ts';

/** Elements each invocation folds before the tree step when the input is large. */
const ELEMENTS_PER_INVOCATION = 8;

/** First-pass workgroups for `count` elements: enough to fill the GPU, never above the cap. */
export function reduceWorkgroupCount(count: number): number {
  const wanted = Math.ceil(count / (WORKGROUP_SIZE * ELEMENTS_PER_INVOCATION));
  return Math.min(MAX_REDUCE_WORKGROUPS, Math.max(1, wanted));
}
