import { tailLines } from '@repocod/core';
import type { JobResult, TestOutcome } from '@repocod/runner';
import type { Baseline } from './baseline.js';
import type { FunctionMining, MiningMethod } from './mining-store.js';
import type { MutationTarget } from './mutation-target.js';
import { relevantTests } from './relevant-tests.js';

/** A function's result from the tests its mutation breaks: none is a `no-tests` result that says why. */
export function functionAnswer(
  target: MutationTarget,
  tests: readonly string[],
  method: MiningMethod,
  candidates: number,
  seconds: number,
): FunctionMining {
  return {
    id: target.id,
    qualname: target.qualname,
    status: tests.length > 0 ? 'tests' : 'no-tests',
    tests,
    reason:
      tests.length > 0
        ? null
        : `none of the ${candidates} passing test${candidates === 1 ? '' : 's'} that run it fails when its body is ` +
          `removed`,
    method,
    candidates,
    seconds,
  };
}

/** A function whose mutation run gave no answer, and why. */
export function functionFailure(
  target: MutationTarget,
  method: MiningMethod,
  reason: string,
  seconds = 0,
): FunctionMining {
  return {
    id: target.id,
    qualname: target.qualname,
    status: 'error',
    tests: [],
    reason,
    method,
    candidates: 0,
    seconds,
  };
}

/**
 * A run with the mutation patched into the file (a fresh process on the candidates, or the whole suite) as a
 * function's result.
 */
export function patchedResult(
  target: MutationTarget,
  tests: readonly string[] | 'all',
  result: JobResult,
  baseline: Baseline,
): FunctionMining {
  const method: MiningMethod = tests === 'all' ? 'whole-suite' : 'fresh-process';
  const run = result.runs[0];
  const seconds = run?.durationSeconds ?? 0;
  if (result.patchError !== null)
    return functionFailure(target, method, `the mutation patch does not apply: ${result.patchError}`);
  if (run === undefined) return functionFailure(target, method, 'no run was made');
  if (run.status !== 'ok' && run.status !== 'collection-error')
    return functionFailure(
      target,
      method,
      `${run.status} (exit code ${run.exitCode ?? 'none'}): ${tailLines(run.log, 5, 'trimmed').join('\n')}`,
      seconds,
    );
  const outcomes = new Map<string, TestOutcome>(run.results.map((test) => [test.nodeId, test.outcome]));
  const candidates = tests === 'all' ? [...baseline.passing] : tests;
  return functionAnswer(
    target,
    relevantTests(candidates, outcomes, baseline.passing),
    method,
    candidates.length,
    seconds,
  );
}
