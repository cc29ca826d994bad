import type { CheckResult, CheckStatus, GoldFit } from '@repocod/core';
import type { JobResult, PytestRun, TestOutcome, TestResult } from '@repocod/runner';
import { countsAsPass, jobRunIds } from '@repocod/runner';
import { describeFit } from './gold-fit.js';
import { FIRST_FAILURE_ARGS } from './validation-jobs.js';

export type { CheckResult, CheckStatus } from '@repocod/core';

/** A test whose outcome differed across the runs with the gold patches. */
export interface FlakyTest {
  readonly nodeId: string;
  readonly outcomes: readonly TestOutcome[];
}

export interface TaskVerdict {
  readonly status: CheckStatus;
  readonly checks: readonly CheckResult[];
  /** FAIL_TO_PASS as validated: flaky tests removed (and, when narrowing, tests that pass without the body). */
  readonly failToPass: readonly string[];
  readonly flakyTests: readonly FlakyTest[];
  /** Tests that pass without the body, removed when narrowing. */
  readonly droppedTests: readonly string[];
  /** FAIL_TO_PASS tests seen passing without the body (kept by REPOCOD's rule, dropped by --narrow). */
  readonly passingWithoutBody: readonly string[];
  /** Whether every FAIL_TO_PASS test's outcome without the body was seen (false when the run stopped early). */
  readonly withoutBodyComplete: boolean;
  readonly goldFrom: GoldEvidence['from'];
  readonly goldBaselineKey: string | null;
}

/**
 * What the gold check is answered by: the k runs of the gold job, or mining's k baseline runs of the
 * whole suite at the base commit in the same environment. The gold state (base + pre + gold patches)
 * is the base commit byte for byte, which the tasks stage's round-trip check proves, so a test that
 * passed in every baseline run passes with the gold patches, and one whose outcomes differ is flaky.
 */
export type GoldEvidence =
  | { readonly from: 'runs'; readonly job: JobResult }
  | {
      readonly from: 'baseline';
      readonly miningKey: string;
      readonly runs: number;
      readonly outcomes: ReadonlyMap<string, readonly TestOutcome[]>;
    };

/**
 * How the fit within the limit is known when mining's baseline is the gold evidence (gold-fit.ts):
 * its durations summed, or the one run of the gold state that decides when they do not. With gold
 * runs, those runs measure it.
 */
export type FitEvidence =
  | {
      readonly from: 'baseline-durations';
      readonly fits: boolean;
      readonly seconds: number;
      readonly limitSeconds: number;
    }
  | { readonly from: 'fit-run'; readonly job: JobResult; readonly limitSeconds: number };

export interface VerdictInput {
  readonly failToPass: readonly string[];
  readonly collects: JobResult;
  /** base + pre.test collected, when the pre state did not collect (see collectsCheck); else null. */
  readonly testsRemovedCollects?: JobResult | null;
  /** A run of the tests without the body: the whole list, or stopped at the first failure (FIRST_FAILURE_ARGS). */
  readonly withoutBody: JobResult;
  readonly gold: GoldEvidence;
  /** With baseline evidence: how the fit within the limit is known (none: not judged, as before version 3). */
  readonly fit?: FitEvidence;
  /**
   * Narrow FAIL_TO_PASS to the tests that fail without the body (SWE-bench's notion). By default
   * (REPOCOD's rule) FAIL_TO_PASS stays whole and one failing test is enough: REPOCOD's tests are
   * those that fail when the body raises, and a test can pass when the body is merely absent.
   */
  readonly narrow?: boolean;
}

/** Enough of a failing run's output to see why, without storing whole logs twice (`runs.log` has them). */
const LOG_TAIL_CHARACTERS = 8 * 1024;

const INFRA_STATUSES: ReadonlySet<PytestRun['status']> = new Set(['timeout', 'crashed', 'infra-error']);

/**
 * The verdict of a task from the runs of its three checks. Flaky tests are found first (their outcome
 * with the gold patches flips across the k runs) and leave FAIL_TO_PASS; the other checks judge the
 * stable tests that remain. The task passes when every check passes; a check that could not be judged (timeout, crash,
 * broken environment) is an infrastructure error, never a failure of the task.
 */
export function taskVerdict(input: VerdictInput): TaskVerdict {
  const flakyTests = flakyAcross(input.failToPass, input.gold);
  const flaky = new Set(flakyTests.map((test) => test.nodeId));
  const stable = input.failToPass.filter((test) => !flaky.has(test));
  const withoutBody = failsWithoutBody(stable, input.withoutBody, input.narrow === true);
  const dropped = new Set(withoutBody.dropped);
  const failToPass = stable.filter((test) => !dropped.has(test));
  const collectCheck = collectsCheck(input.collects, input.testsRemovedCollects ?? null);
  // The gold check judges every stable test, narrowed ones too: they must pass with the body as well.
  const checks = [collectCheck, withoutBody.check, passesWithGold(stable, flakyTests, input.gold, input.fit)];
  const status: CheckStatus = checks.some((check) => check.status === 'failed')
    ? 'failed'
    : checks.some((check) => check.status === 'infra-error')
      ? 'infra-error'
      : 'passed';
  const seen = observedWithoutBody(input.failToPass, input.withoutBody);
  return {
    status,
    checks,
    failToPass,
    flakyTests,
    droppedTests: withoutBody.dropped,
    passingWithoutBody: seen.passing,
    withoutBodyComplete: seen.complete,
    goldFrom: input.gold.from,
    goldBaselineKey: input.gold.from === 'baseline' ? input.gold.miningKey : null,
  };
}

/**
 * Whether a run stopped at the first failure left the question open: it saw no stable test fail
 * before it stopped (a collection error counts as a failure for pytest's --maxfail, and a flaky
 * test may be the one that failed), so only the whole run can say whether any fails.
 */
export function withoutBodyUndecided(input: Omit<VerdictInput, 'collects' | 'narrow'>): boolean {
  const job = input.withoutBody;
  if (!stopsAtFirstFailure(job)) return false;
  if (jobProblem(job) !== null) return false;
  const flaky = new Set(flakyAcross(input.failToPass, input.gold).map((test) => test.nodeId));
  const stable = input.failToPass.filter((test) => !flaky.has(test));
  const outcomes = outcomesOf(job.runs[0] as PytestRun);
  const outcome = (test: string): TestOutcome => outcomes.get(test)?.outcome ?? 'missing';
  return (
    stable.length > 0 &&
    !stable.some((test) => failsOrErrors(outcome(test))) &&
    input.failToPass.some((test) => outcome(test) === 'missing')
  );
}

function stopsAtFirstFailure(job: JobResult): boolean {
  return FIRST_FAILURE_ARGS.every((arg) => (job.job.pytestArgs ?? []).includes(arg));
}

/** The FAIL_TO_PASS tests a run without the body saw pass, and whether it saw every test. */
function observedWithoutBody(tests: readonly string[], job: JobResult): { passing: string[]; complete: boolean } {
  const run = job.runs[0];
  if (job.patchError !== null || run === undefined) return { passing: [], complete: false };
  const outcomes = outcomesOf(run);
  const outcome = (test: string): TestOutcome => outcomes.get(test)?.outcome ?? 'missing';
  return {
    passing: tests.filter((test) => outcome(test) !== 'missing' && !failsOrErrors(outcome(test))),
    complete: tests.every((test) => outcome(test) !== 'missing'),
  };
}

/**
 * Whether the collect check needs base + pre.test collected as well (testsRemovedCollectJob): the pre
 * state ran and did not collect, which the removed body may explain.
 */
export function needsTestsRemovedCollect(pre: JobResult): boolean {
  return jobProblem(pre) === null && pre.runs[0]?.status === 'collection-error';
}

/**
 * The collect check. The pre state P collects; or it does not, but base + pre.test does: then the
 * tests' modules need the body at collection time, and without it their tests fail there, which is
 * what a task asks of them (the check passes, and says so). Anything else (removed tests that break
 * a module, files that do not collect with the body either) fails the check.
 */
export function collectsCheck(
  pre: JobResult,
  testsRemoved: JobResult | null,
): CheckResult & { readonly bodyNeededAtCollection: boolean } {
  const runIds = [...jobRunIds(pre), ...(testsRemoved === null ? [] : jobRunIds(testsRemoved))];
  const base = { check: 'collects' as const, tests: [], runIds, bodyNeededAtCollection: false };
  const problem = jobProblem(pre);
  if (problem !== null) return { ...base, ...problem };
  const run = pre.runs[0] as PytestRun;
  if (run.status === 'ok') return { ...base, status: 'passed', detail: 'the pre state collects', log: null };
  const detail = `the pre state does not collect (${run.status}, exit code ${run.exitCode ?? 'none'})`;
  const failed = { ...base, status: 'failed' as const, detail, log: lastLogCharacters(run) };
  if (testsRemoved === null || !needsTestsRemovedCollect(pre)) return failed;
  const removedProblem = jobProblem(testsRemoved);
  if (removedProblem !== null) return { ...base, ...removedProblem };
  const withBody = testsRemoved.runs[0] as PytestRun;
  if (withBody.status !== 'ok') {
    const why = 'the removed tests or the files themselves break collection';
    return {
      ...failed,
      detail: `${detail}, nor with the body (${withBody.status}): ${why}`,
      log: lastLogCharacters(withBody),
    };
  }
  return {
    ...base,
    status: 'passed',
    detail:
      'the pre state does not collect, and does with the body: its tests need the body at collection time, ' +
      'and fail there without it',
    log: null,
    bodyNeededAtCollection: true,
  };
}

function failsWithoutBody(
  tests: readonly string[],
  job: JobResult,
  narrow: boolean,
): { check: CheckResult; dropped: string[] } {
  const base = { check: 'fails-without-body' as const, runIds: jobRunIds(job) };
  const problem = jobProblem(job);
  if (problem !== null) return { check: { ...base, tests: [], ...problem }, dropped: [] };
  const run = job.runs[0] as PytestRun;
  // Every test flipped with the gold patches: the check of those runs says so; nothing is left to judge here.
  if (tests.length === 0)
    return {
      check: { ...base, status: 'passed', tests: [], detail: 'no stable FAIL_TO_PASS test to judge', log: null },
      dropped: [],
    };
  const outcomes = outcomesOf(run);
  const outcome = (test: string): TestOutcome => outcomes.get(test)?.outcome ?? 'missing';
  const described = (list: readonly string[]): string[] => list.map((test) => `${test} (${outcome(test)})`);
  const missing = tests.filter((test) => outcome(test) === 'missing');
  const failing = tests.filter((test) => failsOrErrors(outcome(test)));
  const notFailing = tests.filter((test) => !missing.includes(test) && !failing.includes(test));
  const missingNote =
    missing.length === 0
      ? ''
      : `${missing.length} missing from the report${run.status === 'collection-error' ? ' (collection error)' : ''}`;
  if (!narrow) {
    // REPOCOD's rule: an empty body must not solve the task, so one failing test is enough.
    if (failing.length === 0) {
      const seen = [
        ...(notFailing.length === 0 ? [] : [`${notFailing.length} pass`]),
        ...(missingNote === '' ? [] : [missingNote]),
      ].join(', ');
      return {
        check: {
          ...base,
          status: 'failed',
          tests: described([...notFailing, ...missing]),
          detail: `no FAIL_TO_PASS test fails without the body (${seen})`,
          log: lastLogCharacters(run),
        },
        dropped: [],
      };
    }
    const detail =
      missing.length === 0
        ? notFailing.length === 0
          ? `all ${tests.length} FAIL_TO_PASS test(s) fail without the body`
          : `${failing.length} of ${tests.length} FAIL_TO_PASS test(s) fail without the body; ${notFailing.length} ` +
            `pass without it (kept)`
        : stopsAtFirstFailure(job)
          ? `${failing.length} of ${tests.length} FAIL_TO_PASS test(s) fail without the body (the run stops at the ` +
            `first failure: ${notFailing.length} passed before it, ${missing.length} not run)`
          : `${failing.length} of ${tests.length} FAIL_TO_PASS test(s) fail without the body; ${notFailing.length} ` +
            `pass without it (kept); ${missingNote}`;
    return { check: { ...base, status: 'passed', tests: [], detail, log: null }, dropped: [] };
  }
  // SWE-bench's reading: the tests that pass without the body leave FAIL_TO_PASS; every test must have run.
  if (missing.length > 0)
    return {
      check: { ...base, status: 'failed', tests: described(missing), detail: missingNote, log: lastLogCharacters(run) },
      dropped: notFailing,
    };
  if (failing.length === 0) {
    return {
      check: {
        ...base,
        status: 'failed',
        tests: described(notFailing),
        detail: 'no FAIL_TO_PASS test fails without the body',
        log: lastLogCharacters(run),
      },
      dropped: notFailing,
    };
  }
  const detail =
    notFailing.length === 0
      ? `all ${tests.length} FAIL_TO_PASS test(s) fail without the body`
      : `${failing.length} test(s) fail without the body; ${notFailing.length} that pass without it left FAIL_TO_PASS`;
  return { check: { ...base, status: 'passed', tests: [], detail, log: null }, dropped: notFailing };
}

function passesWithGold(
  tests: readonly string[],
  flaky: readonly FlakyTest[],
  gold: GoldEvidence,
  fitEvidence: FitEvidence | undefined,
): CheckResult {
  const fromBaseline = gold.from === 'baseline';
  const fitRunIds = fitEvidence?.from === 'fit-run' ? jobRunIds(fitEvidence.job) : [];
  const base = { check: 'passes-with-gold' as const, runIds: fromBaseline ? fitRunIds : jobRunIds(gold.job) };
  const fit = goldFit(gold, fitEvidence);
  if (fit !== null && 'status' in fit) return { ...base, tests: [], ...fit };
  if (fit !== null && !fit.fits) {
    const stopped = fitEvidence?.from === 'fit-run' ? fitEvidence.job.runs[0] : undefined;
    const timedOut = fromBaseline ? stopped : gold.job.runs.find((run) => run.status === 'timeout');
    const whole = tests.length + flaky.length;
    return {
      ...base,
      status: 'failed',
      tests: [],
      detail: `the whole FAIL_TO_PASS (${whole} test(s)) with the gold patches ${describeFit(fit)}`,
      log: timedOut === undefined ? null : lastLogCharacters(timedOut),
      fit,
    };
  }
  const withFit = fit === null ? {} : { fit };
  const fitNote = fit === null ? '' : `; ${describeFit(fit)}`;
  if (!fromBaseline) {
    const problem = jobProblem(gold.job);
    if (problem !== null) return { ...base, tests: [], ...problem };
  }
  const runs = fromBaseline ? gold.runs : gold.job.runs.length;
  const where = fromBaseline ? `${runs} baseline run(s) of mining at the base commit` : `${runs} run(s)`;
  const flakyNote =
    flaky.length === 0
      ? ''
      : `; ${flaky.length} flaky test(s) left FAIL_TO_PASS (${flaky
          .map((test) => `${test.nodeId}: ${test.outcomes.join(', ')}`)
          .join('; ')})`;
  if (tests.length === 0) {
    return {
      ...base,
      status: 'failed',
      tests: flaky.map((test) => test.nodeId),
      detail: `no FAIL_TO_PASS test is left to pass${flakyNote}`,
      log: null,
    };
  }
  const never = tests.filter((test) => !goldOutcomes(test, gold).some(countsAsPass));
  if (never.length > 0) {
    const firstRun = fromBaseline ? undefined : gold.job.runs[0];
    const outcomes = firstRun === undefined ? new Map<string, TestResult>() : outcomesOf(firstRun);
    return {
      ...base,
      status: 'failed',
      tests: never.map(
        (test) => `${test} (${goldOutcomes(test, gold)[0] ?? 'missing'}${firstLine(outcomes.get(test)?.message)})`,
      ),
      detail:
        `${never.length} of ${tests.length} test(s) do not pass with the gold patches in any of ` +
        `${where}${flakyNote}`,
      log: firstRun === undefined ? null : lastLogCharacters(firstRun),
      ...withFit,
    };
  }
  // The one fit run is a run of the gold state too: a test that does not pass there fails as an evaluation would.
  const fitRun = fitEvidence?.from === 'fit-run' ? fitEvidence.job.runs[0] : undefined;
  if (fitRun !== undefined) {
    const outcomes = outcomesOf(fitRun);
    const failing = tests.filter((test) => !countsAsPass(outcomes.get(test)?.outcome ?? 'missing'));
    if (failing.length > 0)
      return {
        ...base,
        status: 'failed',
        tests: failing.map(
          (test) => `${test} (${outcomes.get(test)?.outcome ?? 'missing'}${firstLine(outcomes.get(test)?.message)})`,
        ),
        detail:
          `${failing.length} of ${tests.length} test(s) pass in ${where} but not in one run of the whole ` +
          `FAIL_TO_PASS with the gold patches${fitNote}`,
        log: lastLogCharacters(fitRun),
        ...withFit,
      };
  }
  return {
    ...base,
    status: 'passed',
    tests: [],
    detail: `all ${tests.length} test(s) pass in each of ${where}${flakyNote}${fitNote}`,
    log: null,
    ...withFit,
  };
}

/**
 * The fit within the limit (gold-fit.ts): from the gold runs (a timeout is a run that did not fit), the baseline's
 * durations or the fit run; a problem when the fit run could not be judged; null when nothing measures it (a gold
 * job without a limit, or a baseline without fit evidence, as validations before version 3 had).
 */
function goldFit(
  gold: GoldEvidence,
  evidence: FitEvidence | undefined,
): GoldFit | Pick<CheckResult, 'status' | 'detail' | 'log'> | null {
  if (gold.from === 'runs') {
    const limitSeconds = gold.job.job.timeoutSeconds;
    if (limitSeconds === undefined || gold.job.patchError !== null || gold.job.runs.length === 0) return null;
    const timedOut = gold.job.runs.find((run) => run.status === 'timeout');
    const seconds = Math.max(...gold.job.runs.map((run) => run.durationSeconds));
    if (timedOut !== undefined)
      return { fits: false, seconds: timedOut.durationSeconds, limitSeconds, from: 'gold-runs' };
    return { fits: true, seconds, limitSeconds, from: 'gold-runs' };
  }
  if (evidence === undefined) return null;
  if (evidence.from === 'baseline-durations')
    return {
      fits: evidence.fits,
      seconds: evidence.seconds,
      limitSeconds: evidence.limitSeconds,
      from: 'baseline-durations',
    };
  const run = evidence.job.runs[0];
  if (evidence.job.patchError === null && run?.status === 'timeout')
    return { fits: false, seconds: run.durationSeconds, limitSeconds: evidence.limitSeconds, from: 'fit-run' };
  const problem = jobProblem(evidence.job);
  if (problem !== null) return { ...problem, detail: `the fit run: ${problem.detail}` };
  return {
    fits: true,
    seconds: (run as PytestRun).durationSeconds,
    limitSeconds: evidence.limitSeconds,
    from: 'fit-run',
  };
}

/** A test's outcome in each of the k gold (or baseline) runs; `missing` where a run did not report it. */
function goldOutcomes(test: string, gold: GoldEvidence): readonly TestOutcome[] {
  if (gold.from === 'baseline')
    return gold.outcomes.get(test) ?? Array.from({ length: gold.runs }, () => 'missing' as const);
  return gold.job.runs.map((run) => outcomesOf(run).get(test)?.outcome ?? 'missing');
}

/** Tests whose outcome with the gold patches is a pass in some runs and not in others. */
function flakyAcross(tests: readonly string[], gold: GoldEvidence): FlakyTest[] {
  if (gold.from === 'runs') {
    const job = gold.job;
    if (job.patchError !== null || job.runs.length < 2 || job.runs.some((run) => INFRA_STATUSES.has(run.status)))
      return [];
  }
  return tests.flatMap((nodeId) => {
    const outcomes = goldOutcomes(nodeId, gold);
    const passes = outcomes.filter(countsAsPass).length;
    return passes > 0 && passes < outcomes.length ? [{ nodeId, outcomes }] : [];
  });
}

/** A patch that does not apply fails the check; a run that could not finish is an infrastructure error. */
function jobProblem(job: JobResult): Pick<CheckResult, 'status' | 'detail' | 'log'> | null {
  if (job.patchError !== null)
    return { status: 'failed', detail: job.patchError.split('\n')[0] ?? job.patchError, log: job.patchError };
  const broken = job.runs.find((run) => INFRA_STATUSES.has(run.status));
  if (broken !== undefined)
    return {
      status: 'infra-error',
      detail:
        `the run ended with ${broken.status} (exit code ${broken.exitCode ?? 'none'}, ` +
        `${broken.durationSeconds.toFixed(1)} s)`,
      log: lastLogCharacters(broken),
    };
  if (job.runs.length === 0) return { status: 'infra-error', detail: 'no run was made', log: null };
  return null;
}

function failsOrErrors(outcome: TestOutcome): boolean {
  return outcome === 'failed' || outcome === 'error';
}

/** Per run, its results by node id: built once, as a gold check asks each of thousands of tests. */
const OUTCOMES = new WeakMap<PytestRun, Map<string, TestResult>>();

function outcomesOf(run: PytestRun): Map<string, TestResult> {
  let outcomes = OUTCOMES.get(run);
  if (outcomes === undefined) {
    outcomes = new Map(run.results.map((result) => [result.nodeId, result]));
    OUTCOMES.set(run, outcomes);
  }
  return outcomes;
}

function firstLine(message: string | null | undefined): string {
  const line = message
    ?.split('\n')
    .find((text) => text.trim() !== '')
    ?.trim()
    .slice(0, 160);
  return line === undefined ? '' : `: ${line}`;
}

/**
 * The run's log, or only its last LOG_TAIL_CHARACTERS characters behind '…' when it is longer: a check keeps the end
 * of a log cut by size, not by lines, so this is not tailLines.
 */
function lastLogCharacters(run: PytestRun): string {
  return run.log.length <= LOG_TAIL_CHARACTERS ? run.log : `…${run.log.slice(-LOG_TAIL_CHARACTERS)}`;
}
