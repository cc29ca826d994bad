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

/**
 * What mining's k - 1 baseline runs after the first (the traced run of the whole suite) run: `suite`, the whole
 * suite again, as REPOCOD ran it; `relevant`, only the tests that ended in a mined function's FAIL_TO_PASS, once the
 * mutations named them (packages/mining/src/relevant-reruns.ts). A test that does not pass in every run leaves every
 * FAIL_TO_PASS either way; `relevant` runs the k - 1 runs of far fewer tests, and tells a flaky test only among those
 * that matter to a task.
 */
export const BASELINE_RERUNS = ['suite', 'relevant'] as const;

export type BaselineReruns = (typeof BASELINE_RERUNS)[number];
