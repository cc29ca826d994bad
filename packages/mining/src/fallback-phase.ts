import type { RunJob } from '@repocod/runner';
import type { Baseline } from './baseline.js';
import { patchedResult } from './function-result.js';
import type { MiningRun } from './mining-run.js';
import type { MutationTarget } from './mutation-target.js';

/** A function whose in-process answer could not be had: its candidates run in a fresh process of its own. */
export interface FreshProcessFallback {
  readonly target: MutationTarget;
  readonly candidates: readonly string[];
  readonly why: string;
}

/** An import-time function whose collection run could not answer: the whole suite runs with its mutation. */
export interface WholeSuiteFallback {
  readonly target: MutationTarget;
  readonly why: string;
}

/** The functions the mutation phase could not answer, each in a process of its own; each says why. */
export async function fallBack(
  run: MiningRun,
  freshProcess: readonly FreshProcessFallback[],
  wholeSuite: readonly WholeSuiteFallback[],
  baseline: Baseline,
): Promise<void> {
  const { options, jobs: build, phases, progress } = run;
  for (const { target, why } of [...freshProcess, ...wholeSuite]) {
    options.onEvent?.({ kind: 'fallback', id: target.id, qualname: target.qualname, why });
  }
  if (freshProcess.length + wholeSuite.length === 0) return;
  // The whole-suite runs first, as in the mutation phase.
  const entries: { job: RunJob; target: MutationTarget; tests: readonly string[] | 'all'; why: string }[] = [
    ...wholeSuite.map(({ target, why }) => ({ job: build.wholeSuite(target), target, tests: 'all' as const, why })),
    ...freshProcess.map(({ target, candidates, why }) => {
      const job = build.freshProcess(target, candidates);
      return { job, target, tests: candidates, why };
    }),
  ];
  const byJob = new Map(entries.map((entry) => [entry.job, entry]));
  await phases.run(
    'fallback',
    entries.map((entry) => entry.job),
    entries.length,
    async (job, result) => {
      const entry = byJob.get(job);
      if (entry === undefined) return;
      const outcome = patchedResult(entry.target, entry.tests, result, baseline);
      await progress.finish(
        outcome.status === 'no-tests' ? { ...outcome, reason: `${outcome.reason ?? ''} (${entry.why})` } : outcome,
      );
    },
  );
}
