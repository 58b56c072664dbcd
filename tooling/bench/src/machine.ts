import { cpus } from 'node:os';

/** The CPU model and core count, e.g. "AMD EPYC 9454 48-Core Processor x 2 cores". */
export function describeCpu(): string {
  const list = cpus();
  return `${list[0]?.model.trim() ?? 'unknown CPU'} x ${list.length} cores`;
}
