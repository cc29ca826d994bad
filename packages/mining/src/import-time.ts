import type { JobResult, RunJob } from '@repocod/runner';
import type { Baseline } from './baseline.js';
import { functionAnswer, functionFailure, patchedResult } from './function-result.js';
import type { FunctionMining } from './mining-store.js';
import type { MutationTarget } from './mutation-target.js';

/** An import-time function's two jobs (the suite collected, its candidates run) and their results as they come. */
export interface ImportTimeEntry {
  readonly target: MutationTarget;
  readonly candidates: readonly string[];
  readonly collect: RunJob;
  readonly run: RunJob | null;
  readonly results: Map<RunJob, JobResult>;
}

/** The jobs of an import-time function: the collection, and the candidates' run when it has candidates. */
export function importTimeJobs(entry: ImportTimeEntry): RunJob[] {
  return entry.run === null ? [entry.collect] : [entry.collect, entry.run];
}

/**
 * An import-time function's relevant tests: the passing tests its mutation makes uncollectable
 * (a module that imports it, a parametrisation that calls it), and the candidates (tests whose own
 * run executes the body) that fail with the mutation in the file. This equals the whole suite's
 * answer when the mutation's exception, raised at import, reaches pytest: it can then break a test
 * only by breaking a module's import or by running inside the test. When the suite collects in full
 * with the mutation, the exception was swallowed on the way (or raised outside collection), the
 * module's state may differ in ways no test context shows, and the whole suite runs instead.
 */
export function importTimeResult(
  target: MutationTarget,
  candidates: readonly string[],
  collect: JobResult,
  run: JobResult | null,
  baseline: Baseline,
): { kind: 'answer'; result: FunctionMining } | { kind: 'whole-suite'; why: string } {
  if (collect.patchError !== null) {
    const reason = `the mutation patch does not apply: ${collect.patchError}`;
    return { kind: 'answer', result: functionFailure(target, 'fresh-process', reason) };
  }
  const collectRun = collect.runs[0];
  if (collectRun === undefined || (collectRun.status !== 'ok' && collectRun.status !== 'collection-error')) {
    const status = collectRun?.status ?? 'no run';
    return { kind: 'whole-suite', why: `the collection run with the mutation ended with ${status}` };
  }
  const collected = new Set((collectRun.artifact ?? '').split('\n').filter((line) => line !== ''));
  const uncollectable = [...baseline.passing].filter((nodeId) => !collected.has(nodeId));
  if (collectRun.status === 'ok' && uncollectable.length === 0) {
    const why = 'the suite collects in full with the mutation: its exception at import time did not reach pytest';
    return { kind: 'whole-suite', why };
  }
  const seconds = collectRun.durationSeconds + (run?.runs[0]?.durationSeconds ?? 0);
  if (run === null) {
    const result = functionAnswer(target, [...uncollectable].sort(), 'fresh-process', baseline.passing.size, seconds);
    return { kind: 'answer', result };
  }
  const candidateResult = patchedResult(target, candidates, run, baseline);
  if (candidateResult.status === 'error') return { kind: 'answer', result: candidateResult };
  const tests = [...new Set([...uncollectable, ...candidateResult.tests])].sort();
  return { kind: 'answer', result: functionAnswer(target, tests, 'fresh-process', baseline.passing.size, seconds) };
}
