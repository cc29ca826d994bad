import { JobQueue, parseRedisUrl, RedisExecutor } from '@repocod/distributed';
import type { ExecutorFactory } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** The options of every command that runs the runner's jobs. */
export const EXECUTOR_OPTIONS = ['executor', 'namespace'];

export const EXECUTOR_USAGE = `  --executor redis://HOST:PORT  run the jobs on the workers of that Redis (repocod worker) instead of
                                on this machine's worktrees; the catalog stays here
  --namespace NAME              the key prefix on the Redis (default repocod), to keep clusters apart`;

/**
 * Runs `work` with the executor the options ask for: none (the stages' local pool) without
 * --executor; with it, a queue on that Redis, connected first (an address that does not answer is an
 * error at once) and closed after.
 */
export async function withExecutor<T>(args: ParsedArgs, io: CommandIO, work: (executor: ExecutorFactory | undefined) => Promise<T>): Promise<T> {
  const url = stringOption(args, 'executor');
  if (url === undefined || url === 'local') return work(undefined);
  const address = parseRedisUrl(url, '--executor');
  const queue = await JobQueue.connect(address, { prefix: stringOption(args, 'namespace') });
  try {
    const workers = await queue.workers();
    // With none, the executor says so when jobs are waiting (and again when workers come).
    if (workers.length > 0) io.err(`executor ${address.display}: ${workers.length} worker(s), ${queue.knownSlots} job slot(s): ${workers.map((worker) => worker.id).join(', ')}\n`);
    return await work((prepared) => new RedisExecutor(queue, prepared, { onNotice: (line) => io.err(`${line}\n`) }));
  } finally {
    await queue.close();
  }
}
