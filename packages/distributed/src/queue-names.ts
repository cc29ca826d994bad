/** The BullMQ queue every repository's jobs go to: workers take any repository's jobs. */
export const JOB_QUEUE = 'jobs';

/** Key prefix of everything repocod keeps on a Redis (BullMQ's keys and the worker registry). */
export const DEFAULT_PREFIX = 'repocod';

/** The worker registry's key of one worker (a heartbeat that expires when the worker is gone). */
export function workerKey(prefix: string, workerId: string): string {
  return `${prefix}:workers:${workerId}`;
}

export function workerKeyPattern(prefix: string): string {
  return `${prefix}:workers:*`;
}
