/**
 * What happened to one requested test, from pytest's structured report (never its text output):
 * `missing` (listed but absent from the report) is not a pass. The runner reports it, the catalog
 * stores it, mining and validation judge by it: one vocabulary, declared here once.
 */
export type TestOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed' | 'missing';

export const TEST_OUTCOMES: readonly TestOutcome[] = [
  'passed',
  'failed',
  'error',
  'skipped',
  'xfailed',
  'xpassed',
  'missing',
];
