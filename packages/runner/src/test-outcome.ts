import type { TestOutcome } from '@repocod/core';

export type { TestOutcome } from '@repocod/core';

export interface TestResult {
  readonly nodeId: string;
  readonly outcome: TestOutcome;
  /** Seconds over setup, call and teardown; 0 for a missing test. */
  readonly duration: number;
  /** The failure text pytest reported (longrepr), for failed and error outcomes. */
  readonly message: string | null;
}

/** A task passes when every listed test passes; skips are allowed, as REPOCOD's evaluation allows them. */
export function countsAsPass(outcome: TestOutcome): boolean {
  return outcome === 'passed' || outcome === 'skipped' || outcome === 'xfailed';
}
