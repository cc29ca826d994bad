import type { TestOutcome } from './test-outcome.js';

/*
 * What mining finds, in the words both sides use: @repocod/mining makes these values and @repocod/catalog keeps them
 * (the catalog does not depend on mining; the pipeline passes mining's values straight through).
 */

/**
 * A test's standing at the base commit over k runs: `passing` in every run; `flaky` when the runs disagree;
 * `not-passing` when every run gave the same other outcome (failed, skipped, xfailed …). Only passing tests can be
 * relevant: the others are left out of every FAIL_TO_PASS.
 */
export type BaselineStatus = 'passing' | 'flaky' | 'not-passing';

/** One test of mining's baseline (a row of `mining_baseline`). */
export interface BaselineTest {
  readonly nodeId: string;
  readonly status: BaselineStatus;
  /** One outcome per run, in run order (`missing` when a run did not report the test). */
  readonly outcomes: readonly TestOutcome[];
  /** Why the test is left out, for people; null for passing tests. */
  readonly reason: string | null;
  /** The longest of its runs, in seconds: what a mutation run of it is expected to cost. */
  readonly seconds: number;
}

/** What the coverage run saw of one function's body (harness/repocod_coverage.py; a row of `mining_coverage`). */
export interface CoverageEntry {
  /** Tests whose own process ran a body line (directly, or through a fixture they use). */
  readonly tests: readonly string[];
  /** Tests whose child processes ran a body line. */
  readonly subprocessTests: readonly string[];
  /** A body line ran outside any test: at import or collection time. */
  readonly importTime: boolean;
}

/** How a function's relevant tests were found. */
export type MiningMethod = 'in-process' | 'fresh-process' | 'whole-suite' | 'coverage';

/**
 * `tests`: it has relevant tests (a task); `no-tests`: none, with the reason; `error`: the runs failed, retried on the
 * next run unless the mutation itself stopped pytest (mining's isSettledError).
 */
export type MiningStatus = 'tests' | 'no-tests' | 'error';

/** The mining result of one function, stored as soon as it is known (a row of `relevant_tests`, keyed by its id). */
export interface FunctionMiningResult {
  readonly qualname: string;
  readonly status: MiningStatus;
  /** The relevant tests (FAIL_TO_PASS), sorted. */
  readonly tests: readonly string[];
  readonly reason: string | null;
  readonly method: MiningMethod;
  /** How many tests ran against the mutation. */
  readonly candidates: number;
  /** The function's share of the process time of the run(s) that answered it. */
  readonly seconds: number;
}
