import type { GoldFit } from '@repocod/core';
import type { RunJob } from '@repocod/runner';
import type { ValidatedTask } from './validation-jobs.js';

export type { GoldFit } from '@repocod/core';

/**
 * Whether a task's whole FAIL_TO_PASS runs on the gold state within the limit of one run (REPOCOD's
 * 600 s). An evaluation runs it once, in one pytest process, under that limit: a task whose gold
 * solution cannot finish there is unsolvable, however valid its tests. The rules, stated once:
 * - The k gold runs measure it when they are the gold evidence: each is that very run. One that
 *   times out means the task does not fit.
 * - Otherwise mining's baseline durations answer where they can. Each test's is the longest of its
 *   baseline runs, in whole-suite shards; summed over FAIL_TO_PASS:
 *   - over the limit: the task does not fit (the tests alone take longer, before any start-up);
 *   - within FIT_SHARE of the limit: it fits (the rest covers start-up, collection and a slower run);
 *   - in between: one run of the gold state decides (fitRunJob).
 */
export const FIT_SHARE = 0.5;

/** What mining's durations say: the task fits, does not, or a run must tell. */
export type FitEstimate =
  | { readonly kind: 'fits' | 'exceeds'; readonly seconds: number; readonly limitSeconds: number }
  | { readonly kind: 'undecided'; readonly seconds: number; readonly limitSeconds: number };

/**
 * The fit from the baseline's per-test durations; a test the baseline does not time (none here: the
 * baseline answers a gold check only when it reports every test) leaves the question to a run.
 */
export function fitFromDurations(
  tests: readonly string[],
  durations: ReadonlyMap<string, number>,
  limitSeconds: number,
): FitEstimate {
  let seconds = 0;
  for (const test of tests) {
    const duration = durations.get(test);
    if (duration === undefined) return { kind: 'undecided', seconds, limitSeconds };
    seconds += duration;
  }
  if (seconds > limitSeconds) return { kind: 'exceeds', seconds, limitSeconds };
  if (seconds <= limitSeconds * FIT_SHARE) return { kind: 'fits', seconds, limitSeconds };
  return { kind: 'undecided', seconds, limitSeconds };
}

/** The one run that decides a fit the durations leave open: the gold state, its whole FAIL_TO_PASS, the limit. */
export function fitRunJob(
  task: Pick<ValidatedTask, 'repository' | 'preCode' | 'preTest' | 'goldTest' | 'goldCode' | 'failToPass'>,
  limitSeconds: number,
): RunJob {
  return {
    repository: task.repository,
    patches: [task.preCode, task.preTest, task.goldTest, task.goldCode].filter((patch) => patch !== ''),
    tests: task.failToPass,
    repeat: 1,
    timeoutSeconds: limitSeconds,
  };
}

/** One line for people: "fits the 600 s limit: 42.1 s (baseline durations summed)". */
export function describeFit(fit: GoldFit): string {
  const how =
    fit.from === 'gold-runs'
      ? 'the longest gold run'
      : fit.from === 'fit-run'
        ? 'one run of the gold state'
        : "mining's baseline durations summed";
  return fit.fits
    ? `fits the ${fit.limitSeconds} s limit: ${fit.seconds.toFixed(1)} s (${how})`
    : `does not fit the ${fit.limitSeconds} s limit: ${fit.seconds.toFixed(1)} s (${how})`;
}
