import type { Executor, PreparedRepository } from '@repocod/runner';
import { catalogName } from '@repocod/runner';
import { DEFAULT_REPEAT } from '@repocod/core';
import type { Baseline } from './baseline.js';
import type { Confirmation, Mismatch } from './confirm-phase.js';
import { confirm } from './confirm-phase.js';
import { fallBack } from './fallback-phase.js';
import type { MineOptions } from './mine-options.js';
import type { PhaseStats } from './mining-events.js';
import { MiningJobs } from './mining-jobs.js';
import { MiningPhases } from './mining-phases.js';
import { MiningProgress } from './mining-progress.js';
import type { MiningRun } from './mining-run.js';
import type { FunctionMining, MiningMode } from './mining-store.js';
import { mutate } from './mutation-phase.js';
import type { MutationTarget } from './mutation-target.js';
import { ReferenceRuns } from './reference-runs.js';
import { rerunRelevant } from './relevant-reruns.js';

export interface MiningSummary {
  readonly mode: MiningMode;
  readonly repository: string;
  /** Every target's result, those answered by an earlier run included, in target order. */
  readonly functions: readonly FunctionMining[];
  /** Targets whose result came from the store (a resumed run). */
  readonly resumed: number;
  readonly baseline: Baseline;
  readonly phases: readonly PhaseStats[];
  readonly wallSeconds: number;
  /** Confirmation runs that disagreed with the in-process answer (the fresh-process answer is kept). */
  readonly mismatches: readonly Mismatch[];
  /** Confirmation runs made. */
  readonly confirmed: number;
}

/**
 * Finds the relevant tests (FAIL_TO_PASS) of every target: the tests that pass in all k baseline runs
 * and fail, error or can no longer be collected when the target's body is replaced by an assertion
 * failure. The exact mode runs the whole suite per target, as REPOCOD did. The fast mode gives the
 * same sets at a fraction of the cost: a coverage run names each target's candidate tests, and only
 * those run against its mutation, many mutations per pytest process (see harness/repocod_mutate.py);
 * code that runs at import time gets the suite collected with its mutation (see importTimeResult).
 */
export async function mineRepository(
  prepared: PreparedRepository,
  executor: Executor,
  targets: readonly MutationTarget[],
  options: MineOptions,
): Promise<MiningSummary> {
  const started = performance.now();
  const jobs = new MiningJobs(prepared, options.tracebacks);
  const phases = new MiningPhases(executor, options.onEvent);
  const earlier = await options.store.finishedFunctions(options.mode);
  const progress = new MiningProgress(targets, earlier, options.store, options.mode, options.onEvent);
  const run: MiningRun = { options, jobs, phases, progress };
  const { pending } = progress;
  const reference = await new ReferenceRuns(prepared, jobs, phases, options).run(pending);
  const { coverage } = reference;
  let { baseline } = reference;
  let confirmation: Confirmation = { confirmed: 0, mismatches: [] };
  if (pending.length > 0) {
    const mutation = await mutate(run, pending, baseline, coverage);
    await fallBack(run, mutation.freshProcess, mutation.wholeSuite, baseline);
    if (options.confirm === true && mutation.answers.length > 0)
      confirmation = await confirm(run, mutation.answers, baseline);
  }
  // Also when nothing was pending: a run stopped before its reruns left tests run once (relevant-reruns.ts).
  if (options.reruns === 'relevant') baseline = await rerunRelevant(run, baseline, options.repeat ?? DEFAULT_REPEAT);
  return {
    mode: options.mode,
    repository: catalogName(prepared.entry),
    functions: progress.functions(),
    resumed: progress.resumed,
    baseline,
    phases: phases.stats,
    wallSeconds: (performance.now() - started) / 1000,
    mismatches: confirmation.mismatches,
    confirmed: confirmation.confirmed,
  };
}
