import type { JobResult, PytestRun, TestOutcome, TestResult } from '@repocod/runner';
import { countsAsPass } from '@repocod/runner';
import { jobRunIds } from './job-records.js';
import type { ValidationCheck } from './validation-jobs.js';

export type CheckStatus = 'passed' | 'failed' | 'infra-error';

/** One check of a task, as stored (JSON in `validations.checks`) and shown. */
export interface CheckResult {
  readonly check: ValidationCheck;
  readonly status: CheckStatus;
  /** The tests the check is about when it did not pass (with their outcome), else empty. */
  readonly tests: readonly string[];
  /** One line for people. */
  readonly detail: string;
  /** The end of pytest's output of the run that decided a failed check; null when it passed. */
  readonly log: string | null;
  readonly runIds: readonly string[];
}

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
}

export interface VerdictInput {
  readonly failToPass: readonly string[];
  readonly collects: JobResult;
  readonly withoutBody: JobResult;
  readonly withGold: JobResult;
  /**
   * Narrow FAIL_TO_PASS to the tests that fail without the body (SWE-bench's notion) instead of
   * failing the task when some pass: REPOCOD's tests are those that fail when the body raises, and a
   * test can pass when the body is merely absent (returns None).
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
  const flakyTests = flakyAcross(input.failToPass, input.withGold);
  const flaky = new Set(flakyTests.map((test) => test.nodeId));
  const stable = input.failToPass.filter((test) => !flaky.has(test));
  const withoutBody = failsWithoutBody(stable, input.withoutBody, input.narrow === true);
  const dropped = new Set(withoutBody.dropped);
  const failToPass = stable.filter((test) => !dropped.has(test));
  // The gold check judges every stable test, narrowed ones too: they must pass with the body as well.
  const checks = [collects(input.collects), withoutBody.check, passesWithGold(stable, flakyTests, input.withGold)];
  const status: CheckStatus = checks.some((check) => check.status === 'failed') ? 'failed' : checks.some((check) => check.status === 'infra-error') ? 'infra-error' : 'passed';
  return { status, checks, failToPass, flakyTests, droppedTests: withoutBody.dropped };
}

function collects(job: JobResult): CheckResult {
  const base = { check: 'collects' as const, tests: [], runIds: jobRunIds(job) };
  const problem = jobProblem(job);
  if (problem !== null) return { ...base, ...problem };
  const run = job.runs[0] as PytestRun;
  if (run.status === 'ok') return { ...base, status: 'passed', detail: 'the pre state collects', log: null };
  return { ...base, status: 'failed', detail: `the pre state does not collect (${run.status}, exit code ${run.exitCode ?? 'none'})`, log: logTail(run) };
}

function failsWithoutBody(tests: readonly string[], job: JobResult, narrow: boolean): { check: CheckResult; dropped: string[] } {
  const base = { check: 'fails-without-body' as const, runIds: jobRunIds(job) };
  const problem = jobProblem(job);
  if (problem !== null) return { check: { ...base, tests: [], ...problem }, dropped: [] };
  const run = job.runs[0] as PytestRun;
  // Every test flipped with the gold patches: the check of those runs says so; nothing is left to judge here.
  if (tests.length === 0) return { check: { ...base, status: 'passed', tests: [], detail: 'no stable FAIL_TO_PASS test to judge', log: null }, dropped: [] };
  const outcomes = outcomesOf(run);
  const missing = tests.filter((test) => (outcomes.get(test)?.outcome ?? 'missing') === 'missing');
  const notFailing = tests.filter((test) => !missing.includes(test) && !failsOrErrors(outcomes.get(test)?.outcome ?? 'missing'));
  const dropped = narrow ? notFailing : [];
  const judged = narrow ? missing : [...notFailing, ...missing];
  const described = judged.map((test) => `${test} (${outcomes.get(test)?.outcome ?? 'missing'})`);
  if (judged.length > 0) {
    const why = [
      ...(narrow || notFailing.length === 0 ? [] : [`${notFailing.length} of ${tests.length} FAIL_TO_PASS test(s) do not fail without the body`]),
      ...(missing.length === 0 ? [] : [`${missing.length} missing from the report${run.status === 'collection-error' ? ' (collection error)' : ''}`]),
    ].join('; ');
    return { check: { ...base, status: 'failed', tests: described, detail: why, log: logTail(run) }, dropped };
  }
  if (tests.length - dropped.length === 0) {
    return { check: { ...base, status: 'failed', tests: dropped.map((test) => `${test} (${outcomes.get(test)?.outcome ?? 'missing'})`), detail: 'no FAIL_TO_PASS test fails without the body', log: logTail(run) }, dropped };
  }
  const detail = dropped.length === 0 ? `all ${tests.length} FAIL_TO_PASS test(s) fail without the body` : `${tests.length - dropped.length} test(s) fail without the body; ${dropped.length} that pass without it left FAIL_TO_PASS`;
  return { check: { ...base, status: 'passed', tests: [], detail, log: null }, dropped };
}

function passesWithGold(tests: readonly string[], flaky: readonly FlakyTest[], job: JobResult): CheckResult {
  const base = { check: 'passes-with-gold' as const, runIds: jobRunIds(job) };
  const problem = jobProblem(job);
  if (problem !== null) return { ...base, tests: [], ...problem };
  const runs = job.runs.length;
  const flakyNote = flaky.length === 0 ? '' : `; ${flaky.length} flaky test(s) left FAIL_TO_PASS (${flaky.map((test) => `${test.nodeId}: ${test.outcomes.join(', ')}`).join('; ')})`;
  if (tests.length === 0) {
    return { ...base, status: 'failed', tests: flaky.map((test) => test.nodeId), detail: `no FAIL_TO_PASS test is left to pass${flakyNote}`, log: null };
  }
  const never = tests.filter((test) => job.runs.every((run) => !countsAsPass(outcomesOf(run).get(test)?.outcome ?? 'missing')));
  if (never.length > 0) {
    const firstRun = job.runs[0] as PytestRun;
    const outcomes = outcomesOf(firstRun);
    return {
      ...base,
      status: 'failed',
      tests: never.map((test) => `${test} (${outcomes.get(test)?.outcome ?? 'missing'}${firstLine(outcomes.get(test)?.message)})`),
      detail: `${never.length} of ${tests.length} test(s) do not pass with the gold patches in any of ${runs} run(s)${flakyNote}`,
      log: logTail(firstRun),
    };
  }
  return { ...base, status: 'passed', tests: [], detail: `all ${tests.length} test(s) pass in each of ${runs} run(s)${flakyNote}`, log: null };
}

/** Tests whose outcome with the gold patches is a pass in some runs and not in others. */
function flakyAcross(tests: readonly string[], job: JobResult): FlakyTest[] {
  if (job.patchError !== null || job.runs.length < 2 || job.runs.some((run) => INFRA_STATUSES.has(run.status))) return [];
  const maps = job.runs.map(outcomesOf);
  return tests.flatMap((nodeId) => {
    const outcomes = maps.map((outcomes) => outcomes.get(nodeId)?.outcome ?? 'missing');
    const passes = outcomes.filter(countsAsPass).length;
    return passes > 0 && passes < outcomes.length ? [{ nodeId, outcomes }] : [];
  });
}

/** A patch that does not apply fails the check; a run that could not finish is an infrastructure error. */
function jobProblem(job: JobResult): Pick<CheckResult, 'status' | 'detail' | 'log'> | null {
  if (job.patchError !== null) return { status: 'failed', detail: job.patchError.split('\n')[0] ?? job.patchError, log: job.patchError };
  const broken = job.runs.find((run) => INFRA_STATUSES.has(run.status));
  if (broken !== undefined) return { status: 'infra-error', detail: `the run ended with ${broken.status} (exit code ${broken.exitCode ?? 'none'}, ${broken.durationSeconds.toFixed(1)} s)`, log: logTail(broken) };
  if (job.runs.length === 0) return { status: 'infra-error', detail: 'no run was made', log: null };
  return null;
}

function failsOrErrors(outcome: TestOutcome): boolean {
  return outcome === 'failed' || outcome === 'error';
}

function outcomesOf(run: PytestRun): Map<string, TestResult> {
  return new Map(run.results.map((result) => [result.nodeId, result]));
}

function firstLine(message: string | null | undefined): string {
  const line = message?.split('\n').find((text) => text.trim() !== '')?.trim().slice(0, 160);
  return line === undefined ? '' : `: ${line}`;
}

function logTail(run: PytestRun): string {
  return run.log.length <= LOG_TAIL_CHARACTERS ? run.log : `…${run.log.slice(-LOG_TAIL_CHARACTERS)}`;
}
