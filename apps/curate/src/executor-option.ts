import { JobQueue, parseRedisUrl, RedisExecutor } from '@repocod/distributed';
import type { ExecutorFactory } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** The options of every command that runs the runner's jobs. */
export const EXECUTOR_USAGE =
  `  --workers N                   jobs at once on this machine, a worktree each (default: ` +
  `one per core)
  --repeat K                    k, the baseline runs when mining (default 3) and gold runs when validating
                                (default: the manifest's validate_runs, else 3; run: how often the tests
                                run, default 1)
  --executor redis://HOST:PORT  run the jobs on the workers of that Redis (repocod worker) instead of
                                on this machine's worktrees; the catalog stays here
  --namespace NAME              the key prefix on the Redis (default repocod), to keep clusters apart`;

/** The executor a command runs its jobs on, and where its notices go. */
export interface ExecutorChoice {
  /** undefined: the stages' local pool. */
  readonly executor: ExecutorFactory | undefined;
  /**
   * Where the executor's notices go while it waits (no worker connected, workers back): stderr until a
   * command sets it (the curate command makes them problems of the stage that waits, which the TUI and
   * the headless printer show, instead of text over the TUI's screen).
   */
  onNotice: (line: string) => void;
}

/**
 * Runs `work` with the executor the options ask for: none (the stages' local pool) without
 * --executor; with it, a queue on that Redis, connected first (an address that does not answer is an
 * error at once) and closed after.
 */
export async function withExecutor<T>(
  args: ParsedArgs,
  io: CommandIO,
  work: (choice: ExecutorChoice) => Promise<T>,
): Promise<T> {
  const url = stringOption(args, 'executor');
  if (url === undefined || url === 'local') return work({ executor: undefined, onNotice: () => undefined });
  const address = parseRedisUrl(url, '--executor');
  const queue = await JobQueue.connect(address, { prefix: stringOption(args, 'namespace') });
  try {
    const workers = await queue.workers();
    // With none, the executor says so when jobs are waiting (and again when workers come).
    if (workers.length > 0)
      io.err(
        `executor ${address.display}: ${workers.length} worker(s), ${queue.knownSlots} job slot(s): ` +
          `${workers.map((worker) => worker.id).join(', ')}\n`,
      );
    const choice: ExecutorChoice = {
      executor: (prepared) => new RedisExecutor(queue, prepared, { onNotice: (line) => choice.onNotice(line) }),
      onNotice: (line) => io.err(`${line}\n`),
    };
    return await work(choice);
  } finally {
    await queue.close();
  }
}
