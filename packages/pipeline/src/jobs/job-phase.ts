import type { RunJob } from '@repocod/runner';

/**
 * The phases a build's runner jobs are counted under (cost-ledger.ts), in the order a cold build meets them.
 * `gold` holds the k runs of a task's gold state and the one fit run that stands in for them where mining's
 * baseline answers the gold check: both are the task's FAIL_TO_PASS on its gold state, and nothing in the job
 * tells them apart when k is 1.
 */
export const COST_PHASES = [
  'baseline',
  'traced',
  'reruns',
  'mutation',
  'mutation-fresh',
  'mutation-suite',
  'import-time',
  'collect',
  'without-body',
  'gold',
  'other',
] as const;

export type CostPhase = (typeof COST_PHASES)[number];

/** What each phase is, for the cost table. */
export const COST_PHASE_TITLES: Readonly<Record<CostPhase, string>> = {
  baseline: 'baseline runs (whole suite, plain)',
  traced: 'traced run (whole suite, coverage)',
  reruns: 'baseline reruns (FAIL_TO_PASS tests)',
  mutation: 'mutations (in-process batches)',
  'mutation-fresh': 'mutations (fresh processes, file patched)',
  'mutation-suite': 'mutations (whole suite, file patched)',
  'import-time': 'import-time collections (whole suite)',
  collect: 'pre-state collections',
  'without-body': 'runs without the body',
  gold: 'gold-state runs (k runs or the fit run)',
  other: 'other jobs',
};

/**
 * The phase of a job, read from its shape alone (the job is what the catalog keys, so its shape is stable):
 * - a harness plugin names its phase: coverage is the traced run, mutate the in-process batches, collect the
 *   collection of the suite with a mutation in the file;
 * - `--collect-only` without a plugin is a pre-state collection (the tasks stage's check and validation's);
 * - at the base commit (no patch) the whole suite is a plain baseline run, and named tests in mining are the
 *   `relevant` reruns of the FAIL_TO_PASS tests;
 * - in mining, a patched job is a mutation run in a fresh process: of the whole suite, or of named tests;
 * - in validation, a job with `--continue-on-collection-errors` runs the tests without the body (mining's jobs
 *   carry it too, but they are told by their stage), and any other job of named tests runs the gold state.
 */
export function jobPhase(stage: string, job: RunJob): CostPhase {
  const plugins = job.plugins ?? [];
  if (plugins.includes('repocod_coverage')) return 'traced';
  if (plugins.includes('repocod_mutate')) return 'mutation';
  if (plugins.includes('repocod_collect')) return 'import-time';
  const args = job.pytestArgs ?? [];
  if (args.includes('--collect-only')) return 'collect';
  if (job.patches.length === 0 && job.tests === 'all') return 'baseline';
  if (stage === 'mine' && job.patches.length === 0) return 'reruns';
  if (stage === 'mine') return job.tests === 'all' ? 'mutation-suite' : 'mutation-fresh';
  if (job.tests === 'all') return 'other';
  if (args.includes('--continue-on-collection-errors')) return 'without-body';
  return 'gold';
}
