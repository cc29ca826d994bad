import type { Baseline } from './baseline.js';
import { patchedResult } from './function-result.js';
import type { MiningRun } from './mining-run.js';
import type { InProcessAnswer } from './mutation-phase.js';

export interface Mismatch {
  readonly id: string;
  readonly qualname: string;
  readonly inProcess: readonly string[];
  readonly freshProcess: readonly string[];
}

/** What the confirmation found: the runs it made, and those that disagreed with the in-process answer. */
export interface Confirmation {
  readonly confirmed: number;
  readonly mismatches: readonly Mismatch[];
}

/** Each in-process answer again, in a new process with the file patched: the proof that the swap is sound. */
export async function confirm(
  run: MiningRun,
  answers: readonly InProcessAnswer[],
  baseline: Baseline,
): Promise<Confirmation> {
  const { jobs: build, phases, progress } = run;
  const mismatches: Mismatch[] = [];
  let confirmed = 0;
  const jobs = answers.map(({ target, candidates }) => build.freshProcess(target, candidates));
  const byJob = new Map(jobs.map((job, index) => [job, answers[index]]));
  await phases.run('confirm', jobs, answers.length, async (job, result) => {
    const answer = byJob.get(job);
    if (answer === undefined) return;
    confirmed++;
    const fresh = patchedResult(answer.target, answer.candidates, result, baseline);
    if (fresh.status !== 'error' && sameTests(fresh.tests, answer.tests)) return;
    mismatches.push({
      id: answer.target.id,
      qualname: answer.target.qualname,
      inProcess: answer.tests,
      freshProcess: fresh.tests,
    });
    // A fresh process is the reference the swap must match; when they differ, it is the answer kept.
    if (fresh.status !== 'error') await progress.replace(fresh);
  });
  return { confirmed, mismatches };
}

function sameTests(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((test, index) => test === b[index]);
}
