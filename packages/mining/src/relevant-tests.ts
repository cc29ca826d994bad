import type { TestOutcome } from '@repocod/runner';

/**
 * What a mutated run counts as breaking a test: a failure, an error (setup or teardown), or a test
 * that could no longer be collected (its module imports the mutated code at import time).
 */
export const BROKEN_OUTCOMES: ReadonlySet<TestOutcome> = new Set(['failed', 'error', 'missing']);

/**
 * The relevant tests (FAIL_TO_PASS) of one mutation: the candidates that passed in every baseline run
 * and are broken under the mutation, sorted. A candidate the run did not report is `missing`.
 */
export function relevantTests(
  candidates: Iterable<string>,
  outcomes: ReadonlyMap<string, TestOutcome>,
  passing: ReadonlySet<string>,
): string[] {
  const relevant: string[] = [];
  for (const nodeId of candidates) {
    if (passing.has(nodeId) && BROKEN_OUTCOMES.has(outcomes.get(nodeId) ?? 'missing')) relevant.push(nodeId);
  }
  return [...new Set(relevant)].sort();
}
