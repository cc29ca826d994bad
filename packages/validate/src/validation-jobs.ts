import type { ValidationCheck } from '@repocod/core';
import { contentHash } from '@repocod/core';
import type { RunJob } from '@repocod/runner';

/** The three checks of a task (core's vocabulary), in the order they run. */
export type { ValidationCheck } from '@repocod/core';
export { VALIDATION_CHECKS } from '@repocod/core';

/** What validation needs of a task: its patches and its tests. */
export interface ValidatedTask {
  readonly instanceId: string;
  readonly repository: string;
  readonly baseCommit: string;
  readonly preCode: string;
  readonly preTest: string;
  readonly goldCode: string;
  readonly goldTest: string;
  readonly failToPass: readonly string[];
  /** The target's file: its tests are run first without the body, being the likeliest to fail. */
  readonly file?: string;
}

/** pytest arguments of the run without the body that stops at the first failing test. */
export const FIRST_FAILURE_ARGS: readonly string[] = ['--maxfail=1'];

const applicable = (patches: readonly string[]): string[] => patches.filter((patch) => patch !== '');

/**
 * The pre state P = base + pre.code + pre.test, collected where the task's tests live: the files of
 * FAIL_TO_PASS. Those are the files an evaluation collects (it runs the listed tests, never the whole
 * suite), and the files pre.test edits, so a removed body that breaks an import, or removed tests that
 * break a module, show there. Collecting the whole suite instead costs a full import of it per task
 * (sympy: 5 min for its 13,585 tests, for each of hundreds of tasks) to judge files no evaluation
 * opens. The tasks stage runs this very job as its collect check, so validation finds its runs in the
 * catalog.
 */
export function preStateCollectJob(
  task: Pick<ValidatedTask, 'repository' | 'preCode' | 'preTest' | 'failToPass'>,
): RunJob {
  return {
    repository: task.repository,
    patches: applicable([task.preCode, task.preTest]),
    tests: 'all',
    paths: testFilesOf(task.failToPass),
    pytestArgs: ['--collect-only', '-q'],
  };
}

/**
 * base + pre.test alone (the body kept), collected where preStateCollectJob collects. Asked only when
 * P does not collect: it tells a body that the tests' modules need at import or collection time (a
 * function called in a `parametrize` list or at module level, such as xarray's `date_range`; without
 * it, its tests fail at collection, which is what the task asks of them) from removed tests that
 * break a module, or files that do not collect at the base commit either.
 */
export function testsRemovedCollectJob(task: Pick<ValidatedTask, 'repository' | 'preTest' | 'failToPass'>): RunJob {
  const paths = testFilesOf(task.failToPass);
  return {
    repository: task.repository,
    patches: applicable([task.preTest]),
    tests: 'all',
    paths,
    pytestArgs: ['--collect-only', '-q'],
  };
}

/** The test files of node ids, sorted (a job's paths are part of its hash). */
export function testFilesOf(tests: readonly string[]): string[] {
  return [...new Set(tests.map((test) => test.split('::')[0] ?? test))].sort();
}

/**
 * The jobs of the three checks: P collects (see preStateCollectJob); P + gold.test without the body (collection
 * errors do not stop the other files, so each missing test is told apart); P + gold.test + gold.code, k
 * runs, run as the original evaluation runs it (plain pytest on the node ids). Without `narrow` one
 * failing test answers the second check (REPOCOD's rule), so its run takes the tests of the file likeliest
 * to fail alone and stops at the first failure (pytest imports every listed file before the first test:
 * sympy's `Expr.coeff`, 1,799 tests over hundreds of files, took 629 s that way); when none of them fails,
 * the whole run decides (see withoutBodyUndecided). Narrowing needs every test's outcome, so its run is
 * whole.
 *
 * `timeoutSeconds` is REPOCOD's limit on one run of a task's tests. The gold runs keep it: a solution
 * must pass within it. The runs without the body are evidence, not an evaluation, and without the body
 * a test may fail slowly rather than fast (Sphinx.require_sphinx: 1,594 tests that each start an
 * application ran past 600 s). So each of their tests gets the limit alone (pytest-timeout fails a
 * hung test and the run goes on) and the run gets it once per test file, as a whole-suite shard does.
 */
export function validationJobs(
  task: ValidatedTask,
  repeat: number,
  timeoutSeconds: number,
  narrow = false,
): Record<ValidationCheck, RunJob> {
  const withTests = applicable([task.preCode, task.preTest, task.goldTest]);
  const whole = wholeWithoutBodyJob(task, timeoutSeconds);
  const likeliest = likeliestTestFile(task);
  const firstFailure = {
    ...whole,
    tests: likeliest,
    pytestArgs: [...(whole.pytestArgs ?? []), ...FIRST_FAILURE_ARGS],
    timeoutSeconds: evidenceLimitSeconds(likeliest, timeoutSeconds),
  };
  return {
    collects: { ...preStateCollectJob(task), timeoutSeconds },
    'fails-without-body': narrow ? whole : firstFailure,
    'passes-with-gold': {
      repository: task.repository,
      patches: applicable([...withTests, task.goldCode]),
      tests: task.failToPass,
      repeat,
      timeoutSeconds,
    },
  };
}

/**
 * Every FAIL_TO_PASS test without the body: for --narrow, and when a run stopped at the first failure left the question
 * open.
 */
export function wholeWithoutBodyJob(task: ValidatedTask, timeoutSeconds: number): RunJob {
  return {
    repository: task.repository,
    patches: applicable([task.preCode, task.preTest, task.goldTest]),
    tests: task.failToPass,
    pytestArgs: ['--continue-on-collection-errors', `--timeout=${timeoutSeconds}`],
    timeoutSeconds: evidenceLimitSeconds(task.failToPass, timeoutSeconds),
  };
}

/**
 * The limit of a run without the body: the per-test limit once per test file, as shardTimeoutSeconds,
 * and once more for starting and collecting, so that pytest-timeout fails a test that hangs without the
 * body before the job's own limit ends the run (with one file and one limit the two raced: two of sympy's
 * modulargcd tasks, whose test hangs without the body, came out as infrastructure errors).
 */
export function evidenceLimitSeconds(tests: readonly string[], timeoutSeconds: number): number {
  return timeoutSeconds * (Math.max(1, testFilesOf(tests).length) + 1);
}

/**
 * FAIL_TO_PASS with the test files named after the target's module first (`test_util.py` for
 * `util.py`): they test it directly, so they are the likeliest to fail without its body. pytest runs
 * the files in the order it is given them, so only the files' order matters.
 */
export function likeliestFailingFirst(task: Pick<ValidatedTask, 'failToPass' | 'file'>): string[] {
  const stem = task.file
    ?.split('/')
    .at(-1)
    ?.replace(/\.py$/, '')
    .replace(/^_+|_+$/g, '');
  if (stem === undefined || stem === '' || stem === 'init') return [...task.failToPass];
  const direct = (test: string): boolean => (test.split('::')[0]?.split('/').at(-1) ?? '').includes(stem);
  return [...task.failToPass.filter(direct), ...task.failToPass.filter((test) => !direct(test))];
}

/** The tests of the first file of likeliestFailingFirst: the run without the body that stops at a failure. */
export function likeliestTestFile(task: Pick<ValidatedTask, 'failToPass' | 'file'>): string[] {
  const ordered = likeliestFailingFirst(task);
  const first = testFilesOf(ordered.slice(0, 1))[0];
  return ordered.filter((test) => (test.split('::')[0] ?? test) === first);
}

/** Names a task's content: a task rebuilt with other patches or tests is another task to validate. */
export function taskHash(task: ValidatedTask): string {
  const patches = [task.preCode, task.preTest, task.goldCode, task.goldTest].map((patch) => contentHash(patch));
  return taskHashOf({ ...task, patchHashes: patches });
}

/**
 * The same hash from the patches' hashes (pre code, pre test, gold code, gold test), as the catalog's
 * task summaries give them without reading the patches (DuckDB's sha256 is contentHash's).
 */
export function taskHashOf(task: {
  readonly instanceId: string;
  readonly baseCommit: string;
  readonly patchHashes: readonly string[];
  readonly failToPass: readonly string[];
}): string {
  return contentHash(
    JSON.stringify({
      instanceId: task.instanceId,
      baseCommit: task.baseCommit,
      patches: task.patchHashes,
      failToPass: [...task.failToPass].sort(),
    }),
  );
}
