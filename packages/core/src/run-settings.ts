import { availableParallelism } from 'node:os';

/**
 * The settings every test-running stage shares, with their defaults stated once: the CLI, the TUI and
 * the stage functions resolve an unset option here, so that `repocod mine`, `tasks`, `validate` and a
 * flow agree on them.
 */

/** k: the baseline runs when mining and the gold runs when validating (REPOCOD's 3). */
export const DEFAULT_REPEAT = 3;

/** Jobs at once (the local pool's worktrees): one per core. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export function resolveWorkers(workers: number | undefined): number {
  return workers ?? defaultWorkers();
}

export function resolveRepeat(repeat: number | undefined): number {
  return repeat ?? DEFAULT_REPEAT;
}
