import type { DuckDBAppender } from '@duckdb/node-api';
import { appendTrailingDefaults } from './append-defaults.js';
import {
  double,
  integer,
  nullableInteger,
  nullableText,
  type Row,
  text,
  timestamp,
  timestampValueOf,
  oneOf,
} from './typed-cells.js';
import type { TestOutcome } from '@repocod/core';
import { TEST_OUTCOMES } from '@repocod/core';

/*
 * The catalog must not depend on @repocod/runner (core ← catalog and core ← runner are separate
 * arrows), so the shapes the runner hands over are declared here again, structurally identical, and
 * the pipeline passes the runner's values straight through.
 */

/** How one pytest run ended; anything but `ok` and `collection-error` is an infrastructure failure. */
export type RunStatus = 'ok' | 'collection-error' | 'timeout' | 'crashed' | 'infra-error' | 'patch-error';

export const RUN_STATUSES: readonly RunStatus[] = [
  'ok',
  'collection-error',
  'timeout',
  'crashed',
  'infra-error',
  'patch-error',
];

export type { TestOutcome } from '@repocod/core';
export { TEST_OUTCOMES } from '@repocod/core';

/** One finished attempt of a runner job, a row of `runs`. */
export interface RunRecord {
  readonly runId: string;
  /** Hash of repository, recipe, patches and tests: the same job again has the same hash. */
  readonly jobHash: string;
  readonly repository: string;
  readonly baseCommit: string;
  readonly environmentKey: string;
  readonly recipeHash: string;
  readonly patchesHash: string;
  readonly testsHash: string;
  /** 1 … repeat: a job run k times to find flaky tests has k attempts under one job hash. */
  readonly attempt: number;
  readonly status: RunStatus;
  /** Null when pytest never exited on its own (timeout, crash, patch error). */
  readonly exitCode: number | null;
  readonly durationSeconds: number;
  /** How the tests reached the network (for example `none` or `host`), as the runner reports it. */
  readonly network: string;
  /** Null when the job ran outside a worker pool. */
  readonly worker: number | null;
  readonly log: string;
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

/** The result of one requested test in one run, a row of `test_results`. */
export interface TestResultRecord {
  /** The pytest node id, `path::Class::test[param]`. */
  readonly nodeId: string;
  readonly outcome: TestOutcome;
  readonly durationSeconds: number;
  /** pytest's failure text for failed and error outcomes. */
  readonly message: string | null;
}

/** A run as the catalog gives it back to answer a repeated job: the run with its per-test results. */
export type StoredRun = RunRecord & { results: TestResultRecord[] };

/** The `runs` columns in table order, which the appender must follow (a test checks the live table). */
export const RUN_COLUMNS = [
  'run_id',
  'job_hash',
  'repository',
  'base_commit',
  'environment_key',
  'recipe_hash',
  'patches_hash',
  'tests_hash',
  'attempt',
  'status',
  'exit_code',
  'duration_seconds',
  'network',
  'worker',
  'log',
  'started_at',
  'finished_at',
] as const;

/** The `test_results` columns in table order. */
export const TEST_RESULT_COLUMNS = ['run_id', 'node_id', 'outcome', 'duration_seconds', 'message'] as const;

const INT32_MAX = 2_147_483_647;

function isInt32(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) <= INT32_MAX;
}

function isDuration(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}

function isValidDate(value: Date): boolean {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/**
 * Finds the first value the database would store wrongly or refuse with an unhelpful message, or
 * returns null. Statuses, outcomes and repeated node ids are left to the schema's CHECK and PRIMARY KEY
 * constraints, which refuse them loudly; what is checked here is what DuckDB would otherwise truncate,
 * store as NaN, or report without saying which field was wrong.
 */
export function runProblem(run: RunRecord, results: readonly TestResultRecord[]): string | null {
  for (const field of ['runId', 'jobHash', 'repository'] as const) {
    if (run[field] === '') return `${field} is empty`;
  }
  if (!isInt32(run.attempt) || run.attempt < 1) return `attempt is ${run.attempt}, expected a whole number from 1`;
  if (run.exitCode !== null && !isInt32(run.exitCode))
    return `exitCode is ${run.exitCode}, expected a 32-bit whole number or null`;
  if (run.worker !== null && !isInt32(run.worker))
    return `worker is ${run.worker}, expected a 32-bit whole number or null`;
  if (!isDuration(run.durationSeconds))
    return `durationSeconds is ${run.durationSeconds}, expected a finite number ≥ 0`;
  if (!isValidDate(run.startedAt)) return 'startedAt is not a valid date';
  if (!isValidDate(run.finishedAt)) return 'finishedAt is not a valid date';
  for (const result of results) {
    if (result.nodeId === '') return 'a test result has an empty node id';
    if (!isDuration(result.durationSeconds)) {
      return `${result.nodeId}: durationSeconds is ${result.durationSeconds}, expected a finite number ≥ 0`;
    }
  }
  return null;
}

function appendNullableInteger(appender: DuckDBAppender, value: number | null): void {
  if (value === null) appender.appendNull();
  else appender.appendInteger(value);
}

/** Appends the `runs` row of a run; the caller owns the appender and the transaction around it. */
export function appendRun(appender: DuckDBAppender, run: RunRecord): void {
  appender.appendVarchar(run.runId);
  appender.appendVarchar(run.jobHash);
  appender.appendVarchar(run.repository);
  appender.appendVarchar(run.baseCommit);
  appender.appendVarchar(run.environmentKey);
  appender.appendVarchar(run.recipeHash);
  appender.appendVarchar(run.patchesHash);
  appender.appendVarchar(run.testsHash);
  appender.appendInteger(run.attempt);
  appender.appendVarchar(run.status);
  appendNullableInteger(appender, run.exitCode);
  appender.appendDouble(run.durationSeconds);
  appender.appendVarchar(run.network);
  appendNullableInteger(appender, run.worker);
  appender.appendVarchar(run.log);
  appender.appendTimestamp(timestampValueOf(run.startedAt));
  appender.appendTimestamp(timestampValueOf(run.finishedAt));
  appendTrailingDefaults(appender, RUN_COLUMNS.length);
  appender.endRow();
}

/** Appends one `test_results` row of the run `runId`. */
export function appendTestResult(appender: DuckDBAppender, runId: string, result: TestResultRecord): void {
  appender.appendVarchar(runId);
  appender.appendVarchar(result.nodeId);
  appender.appendVarchar(result.outcome);
  appender.appendDouble(result.durationSeconds);
  if (result.message === null) appender.appendNull();
  else appender.appendVarchar(result.message);
  appendTrailingDefaults(appender, TEST_RESULT_COLUMNS.length);
  appender.endRow();
}

/**
 * Columns the schema leaves nullable but this writer always fills; a NULL there was written by hand
 * (`repocod sql`) and reads back as an empty string rather than failing the whole listing.
 */
function filledText(row: Row, column: string): string {
  return nullableText(row, column) ?? '';
}

/** Rebuilds a RunRecord from a `SELECT *` row of `runs`. */
export function runFromRow(row: Row): RunRecord {
  return {
    runId: text(row, 'run_id'),
    jobHash: text(row, 'job_hash'),
    repository: text(row, 'repository'),
    baseCommit: filledText(row, 'base_commit'),
    environmentKey: filledText(row, 'environment_key'),
    recipeHash: filledText(row, 'recipe_hash'),
    patchesHash: filledText(row, 'patches_hash'),
    testsHash: filledText(row, 'tests_hash'),
    attempt: integer(row, 'attempt'),
    status: oneOf(row, 'status', RUN_STATUSES, 'run status'),
    exitCode: nullableInteger(row, 'exit_code'),
    durationSeconds: double(row, 'duration_seconds'),
    network: filledText(row, 'network'),
    worker: nullableInteger(row, 'worker'),
    log: filledText(row, 'log'),
    startedAt: timestamp(row, 'started_at'),
    finishedAt: timestamp(row, 'finished_at'),
  };
}

/** Rebuilds a TestResultRecord from a `SELECT *` row of `test_results`. */
export function testResultFromRow(row: Row): TestResultRecord {
  return {
    nodeId: text(row, 'node_id'),
    outcome: oneOf(row, 'outcome', TEST_OUTCOMES, 'test outcome'),
    durationSeconds: double(row, 'duration_seconds'),
    message: nullableText(row, 'message'),
  };
}
