import type { JobResult, RunJob, TestResult } from '@repocod/runner';
import { shardTimeoutSeconds } from '@repocod/runner';
import type { Baseline, BaselineTest } from './baseline.js';
import { baselineOf, classifyTest } from './baseline.js';
import type { MiningRun } from './mining-run.js';
import type { FunctionMining } from './mining-store.js';
import { completeShards } from './reference-runs.js';

/**
 * `relevant` reruns (manifest `baseline_reruns: relevant`): the baseline's k - 1 runs after its first, traced run of
 * the whole suite, of only the tests that ended in a FAIL_TO_PASS. The rules, stated once:
 *
 * - A test is relevant to a function when it passes in all k baseline runs and breaks under the function's
 *   mutation. Whether a test passes in runs 2..k matters only for tests that pass in run 1 and break under a
 *   mutation: every other test is out of every FAIL_TO_PASS already. So runs 2..k are made of exactly those, the
 *   union of the FAIL_TO_PASS sets found from run 1, once the mutations have named them, and give the same sets as
 *   k runs of the whole suite would, but for the context: a rerun is a pytest process of those tests alone, not of
 *   the whole suite, so a test broken only by another test's leftovers in a whole-suite run is told by the first,
 *   traced run alone.
 * - Every stored function of the mining key is covered, not only this run's targets: a run stopped between its
 *   mutations and its reruns leaves results whose tests were run once, and the next run reruns them. A test
 *   already run k times is never run again.
 * - A test that does not pass in a rerun (or that a rerun did not report) becomes flaky in the baseline and leaves
 *   every FAIL_TO_PASS it was in; a function left with none becomes `no-tests` and says why.
 * - The reruns go in jobs of whole test files (the pytest process of a file pays its imports once), the costliest
 *   files first, about two jobs per worker, each with the shards' limit per file; each job is the k - 1 runs of its
 *   tests, stored as it finishes, so that a stopped phase resumes.
 */
export async function rerunRelevant(run: MiningRun, baseline: Baseline, k: number): Promise<Baseline> {
  if (k <= 1) return baseline;
  const { store } = run.options;
  const stored = await store.finishedFunctions(run.options.mode);
  const byNode = new Map(baseline.tests.map((test) => [test.nodeId, test]));
  const unconfirmed = [...new Set([...stored.values()].flatMap((result) => result.tests))]
    .filter((test) => (byNode.get(test)?.outcomes.length ?? k) < k)
    .sort();
  if (unconfirmed.length === 0) return baseline;
  const jobs = rerunJobs(run, unconfirmed, byNode, k - 1);
  const results = await run.phases.runStored('reruns', jobs, stored.size, completeShards(store.referenceJobs));
  const rerun = new Map<string, BaselineTest>();
  for (const job of jobs) {
    const result = results.get(job) as JobResult;
    const runs = result.runs.map((pytest) => new Map(pytest.results.map((test) => [test.nodeId, test])));
    // A job that made no run (its patch-free checkout failed) reports every test as missing in each of its runs.
    const reported = runs.length === k - 1 ? runs : Array.from({ length: k - 1 }, () => new Map<string, TestResult>());
    for (const nodeId of job.tests as readonly string[]) {
      const first = byNode.get(nodeId) as BaselineTest;
      rerun.set(
        nodeId,
        rerunTest(
          first,
          reported.map((outcomes) => outcomes.get(nodeId)),
        ),
      );
    }
  }
  const tests = baseline.tests.map((test) => rerun.get(test.nodeId) ?? test);
  await store.saveBaseline(tests);
  const confirmed = baselineOf(tests);
  const flaky = new Set(unconfirmed.filter((test) => !confirmed.passing.has(test)));
  if (flaky.size > 0) {
    for (const result of stored.values()) {
      const left = result.tests.filter((test) => !flaky.has(test));
      if (left.length === result.tests.length) continue;
      await run.progress.replace(withoutFlaky(result, left, rerun));
    }
  }
  return confirmed;
}

/** One rerun test: its first run's outcome, then the reruns', classified as the baseline classifies any test. */
function rerunTest(first: BaselineTest, reruns: readonly (TestResult | undefined)[]): BaselineTest {
  const firstRun: TestResult = {
    nodeId: first.nodeId,
    outcome: first.outcomes[0] ?? 'missing',
    duration: first.seconds,
    message: null,
  } as TestResult;
  return classifyTest(first.nodeId, [firstRun, ...reruns]);
}

/** A function's result without its tests that turned out flaky; with none left, a `no-tests` result saying why. */
function withoutFlaky(
  result: FunctionMining,
  left: readonly string[],
  rerun: ReadonlyMap<string, BaselineTest>,
): FunctionMining {
  if (left.length > 0) return { ...result, tests: left };
  const first = result.tests[0] as string;
  return {
    ...result,
    status: 'no-tests',
    tests: [],
    reason: [
      `its ${result.tests.length} relevant test(s) did not pass in every baseline run`,
      `(${first}: ${rerun.get(first)?.reason ?? 'flaky'})`,
    ].join(' '),
  };
}

/** The reruns in jobs of whole test files, balanced by the first run's durations (see the rules above). */
function rerunJobs(
  run: MiningRun,
  tests: readonly string[],
  byNode: ReadonlyMap<string, BaselineTest>,
  repeat: number,
): RunJob[] {
  const files = new Map<string, { tests: string[]; seconds: number }>();
  for (const test of tests) {
    const file = test.split('::')[0] ?? test;
    const entry = files.get(file) ?? { tests: [], seconds: 0 };
    entry.tests.push(test);
    entry.seconds += byNode.get(test)?.seconds ?? 0;
    files.set(file, entry);
  }
  const count = Math.min(files.size, Math.max(1, 2 * run.phases.parallelism));
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], tests: [] as string[], seconds: 0 }));
  const costliest = [...files].sort(([a, x], [b, y]) => y.seconds - x.seconds || (a < b ? -1 : 1));
  for (const [file, entry] of costliest) {
    const lightest = groups.reduce((least, group) => (group.seconds < least.seconds ? group : least));
    lightest.files.push(file);
    lightest.tests.push(...entry.tests);
    lightest.seconds += entry.seconds;
  }
  const timeout = run.jobs.testTimeoutSeconds;
  return groups
    .filter((group) => group.tests.length > 0)
    .map((group) =>
      run.jobs.reference({
        tests: [...group.tests].sort(),
        repeat,
        timeoutSeconds: shardTimeoutSeconds({ files: group.files, rest: false, cost: 0 }, timeout),
      }),
    );
}
