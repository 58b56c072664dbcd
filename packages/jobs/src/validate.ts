import { JobsError } from './errors.ts';

/** Throws a JobsError for a jobCount or groupSize the post's Dispatch could not mean. */
export function checkDispatch(jobCount: number, groupSize: number): void {
  if (!Number.isInteger(jobCount) || jobCount < 0 || jobCount > 0x7fffffff) {
    throw new JobsError(`jobCount must be a non-negative integer below 2^31, got ${jobCount}.`);
  }
  if (!Number.isInteger(groupSize) || groupSize < 1 || groupSize > 0x7fffffff) {
    throw new JobsError(`groupSize must be a positive integer (jobs per group, run serially on one thread), got ${groupSize}.`);
  }
}
