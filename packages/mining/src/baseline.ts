import type { TestOutcome, TestResult } from '@repocod/runner';
import type { BaselineStatus, BaselineTest } from '@repocod/core';

export type { BaselineStatus, BaselineTest } from '@repocod/core';

export interface Baseline {
  readonly tests: readonly BaselineTest[];
  /** Node ids that passed in every run. */
  readonly passing: ReadonlySet<string>;
}

/** Classifies every test reported by any of the k whole-suite runs. */
export function classifyBaseline(runs: readonly (readonly TestResult[])[]): Baseline {
  const byRun = runs.map((results) => new Map(results.map((result) => [result.nodeId, result])));
  const nodeIds = [...new Set(runs.flatMap((results) => results.map((result) => result.nodeId)))].sort();
  const tests = nodeIds.map((nodeId) =>
    classifyTest(
      nodeId,
      byRun.map((run) => run.get(nodeId)),
    ),
  );
  return baselineOf(tests);
}

/** One test from its result in each run (undefined where a run did not report it: `missing`). */
export function classifyTest(nodeId: string, results: readonly (TestResult | undefined)[]): BaselineTest {
  const outcomes = results.map((result) => result?.outcome ?? 'missing');
  const seconds = Math.max(0, ...results.map((result) => result?.duration ?? 0));
  return { nodeId, outcomes, seconds, ...standing(outcomes, results) };
}

/** A baseline from stored tests (the catalog's rows). */
export function baselineOf(tests: readonly BaselineTest[]): Baseline {
  return { tests, passing: new Set(tests.filter((test) => test.status === 'passing').map((test) => test.nodeId)) };
}

function standing(
  outcomes: readonly TestOutcome[],
  results: readonly (TestResult | undefined)[],
): { status: BaselineStatus; reason: string | null } {
  if (outcomes.every((outcome) => outcome === 'passed')) return { status: 'passing', reason: null };
  const runs = outcomes.length;
  if (outcomes.every((outcome) => outcome === outcomes[0])) {
    // The first line of its message says why (a network error, a missing font, …): kept for people and networkBound.
    const message = firstLine(
      results.find((result) => result?.message !== null && result?.message !== undefined)?.message,
    );
    const why = message === undefined ? '' : ` (${message})`;
    return {
      status: 'not-passing',
      reason: `${outcomes[0]} in ${runs === 1 ? 'the only run' : `all ${runs} runs`}${why}`,
    };
  }
  const passed = outcomes.filter((outcome) => outcome === 'passed').length;
  const firstOther = outcomes.findIndex((outcome) => outcome !== 'passed' && outcome !== outcomes[0]);
  const odd = firstOther === -1 ? outcomes.findIndex((outcome) => outcome !== 'passed') : firstOther;
  const message = firstLine(results[odd]?.message);
  const detail = `run ${odd + 1}: ${outcomes[odd]}${message === undefined ? '' : ` (${message})`}`;
  return { status: 'flaky', reason: `passed in ${passed} of ${runs} runs (${outcomes.join(', ')}); ${detail}` };
}

function firstLine(message: string | null | undefined): string | undefined {
  return message
    ?.split('\n')
    .find((line) => line.trim() !== '')
    ?.slice(0, 200);
}
