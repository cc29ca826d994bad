import type { GoldFit } from '@repocod/core';
import type { RunJob } from '@repocod/runner';
import type { ValidatedTask } from './validation-jobs.js';

export type { GoldFit } from '@repocod/core';

/**
 * Whether a task's whole FAIL_TO_PASS passes on the gold state in one run within the limit of one run
 * (REPOCOD's 600 s). An evaluation runs it once, in one pytest process, under that limit: a task whose
 * gold solution cannot finish there, or whose tests do not all pass when run together, is unsolvable,
 * however valid its tests are one by one. The rules, stated once:
 * - The k gold runs answer it when they are the gold evidence: each is such a run. One that times out
 *   means the task does not fit.
 * - Otherwise (mining's baseline answers the gold check) mining's durations say where the run is not
 *   needed: each test's is the longest of its baseline runs, in whole-suite shards; summed over
 *   FAIL_TO_PASS and over the limit, the task does not fit (the tests alone take longer, before any
 *   start-up). Else one run decides: the job `evaluate --gold` runs (fitRunJob), so that an evaluation
 *   of the gold patches afterwards is answered by it. Summed durations well within the limit do not
 *   answer it: plotly.py's `Layout.__init__` (1,051 tests, under 130 s summed) passed in every baseline
 *   shard and fails three tests run together, one test leaving the default template unset for another.
 */
export type FitEstimate =
  | { readonly kind: 'exceeds'; readonly seconds: number; readonly limitSeconds: number }
  | { readonly kind: 'run'; readonly seconds: number | null; readonly limitSeconds: number };

/** What the baseline's per-test durations say: the task exceeds the limit, or a run must tell. */
export function fitFromDurations(
  tests: readonly string[],
  durations: ReadonlyMap<string, number>,
  limitSeconds: number,
): FitEstimate {
  let seconds = 0;
  for (const test of tests) {
    const duration = durations.get(test);
    if (duration === undefined) return { kind: 'run', seconds: null, limitSeconds };
    seconds += duration;
  }
  return seconds > limitSeconds ? { kind: 'exceeds', seconds, limitSeconds } : { kind: 'run', seconds, limitSeconds };
}

/**
 * The one run that decides a fit: the job `evaluate --gold` runs (evaluation-job.ts in @repocod/evaluate,
 * whose test holds them equal): the pre state, the gold code as the model's change, the hidden tests
 * restored, the whole FAIL_TO_PASS once under the limit.
 */
export function fitRunJob(
  task: Pick<ValidatedTask, 'repository' | 'preCode' | 'preTest' | 'goldTest' | 'goldCode' | 'failToPass'>,
  limitSeconds: number,
): RunJob {
  return {
    repository: task.repository,
    patches: [task.preCode, task.preTest, task.goldCode, task.goldTest].filter((patch) => patch !== ''),
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
