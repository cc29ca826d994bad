import { type DuckDBAppender, LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { appendTrailingDefaults } from './append-defaults.js';
import {
  boolean,
  double,
  integer,
  nullableText,
  type Row,
  text,
  textList,
  timestamp,
  timestampValueOf,
} from './typed-cells.js';
import type { CheckResult, ValidationStatus } from '@repocod/core';
import { decodeCheckResults } from '@repocod/core';

/*
 * The shape the pipeline's validation hands over, declared here (the catalog depends on core only); its
 * status is core's ValidationStatus.
 */

export type { ValidationStatus } from '@repocod/core';
export { VALIDATION_STATUSES } from '@repocod/core';

/** How the gold check was answered: k runs with the gold patches, or mining's k baseline runs. */
export type GoldSource = 'runs' | 'baseline';

/** One task's validation, a row of `validations`. */
export interface ValidationRow {
  readonly instanceId: string;
  /** Hash of the task's content (patches, FAIL_TO_PASS, base commit): a rebuilt task has another. */
  readonly taskHash: string;
  /** Hash of the task hash, the environment, the number of runs and the settings. */
  readonly validationKey: string;
  readonly repository: string;
  readonly status: ValidationStatus;
  /** The checks: name, status, tests concerned, detail, log, run ids (JSON text, read back checked). */
  readonly checks: readonly CheckResult[];
  /** FAIL_TO_PASS as validated. */
  readonly failToPass: readonly string[];
  /** Tests whose outcome flipped across the runs with the gold patches (removed from FAIL_TO_PASS). */
  readonly flakyTests: readonly string[];
  /** Tests that pass without the body, removed from FAIL_TO_PASS when validation narrows it. */
  readonly droppedTests: readonly string[];
  readonly toolVersion: string;
  readonly pythonVersion: string;
  /** sha256 of the environment's installed packages (name==version, sorted). */
  readonly packagesHash: string;
  readonly environmentKey: string;
  /** The `runs` rows behind the verdict. */
  readonly runIds: readonly string[];
  /** Runs with the gold patches (k). */
  readonly repeat: number;
  readonly seconds: number;
  /** Tests seen passing without the body (kept in FAIL_TO_PASS unless validation narrows it). */
  readonly passingWithoutBody: readonly string[];
  /**
   * Whether every test's outcome without the body is known: a run that stops at the first failure
   * leaves the tests after it unseen. Null for validations stored before this was recorded.
   */
  readonly withoutBodyComplete: boolean | null;
  readonly goldFrom: GoldSource;
  /** The mining key whose baseline answered the gold check (null when runs answered it). */
  readonly goldBaselineKey: string | null;
}

export type StoredValidation = ValidationRow & { readonly validatedAt: Date };

export const VALIDATION_COLUMNS = [
  'instance_id',
  'task_hash',
  'validation_key',
  'repository',
  'status',
  'checks',
  'fail_to_pass',
  'flaky_tests',
  'dropped_tests',
  'tool_version',
  'python_version',
  'packages_hash',
  'environment_key',
  'run_ids',
  'repeat',
  'seconds',
  'validated_at',
  'passing_without_body',
  'without_body_complete',
  'gold_from',
  'gold_baseline_key',
] as const;

const TEXT_LIST = LIST(VARCHAR);

export function appendValidation(appender: DuckDBAppender, row: StoredValidation): void {
  for (const value of [
    row.instanceId,
    row.taskHash,
    row.validationKey,
    row.repository,
    row.status,
    JSON.stringify(row.checks),
  ])
    appender.appendVarchar(value);
  for (const list of [row.failToPass, row.flakyTests, row.droppedTests])
    appender.appendList(listValue([...list]), TEXT_LIST);
  for (const value of [row.toolVersion, row.pythonVersion, row.packagesHash, row.environmentKey])
    appender.appendVarchar(value);
  appender.appendList(listValue([...row.runIds]), TEXT_LIST);
  appender.appendInteger(row.repeat);
  appender.appendDouble(row.seconds);
  appender.appendTimestamp(timestampValueOf(row.validatedAt));
  appender.appendList(listValue([...row.passingWithoutBody]), TEXT_LIST);
  if (row.withoutBodyComplete === null) appender.appendNull();
  else appender.appendBoolean(row.withoutBodyComplete);
  appender.appendVarchar(row.goldFrom);
  if (row.goldBaselineKey === null) appender.appendNull();
  else appender.appendVarchar(row.goldBaselineKey);
  appendTrailingDefaults(appender, VALIDATION_COLUMNS.length);
  appender.endRow();
}

export function validationFromRow(row: Row): StoredValidation {
  return {
    instanceId: text(row, 'instance_id'),
    taskHash: text(row, 'task_hash'),
    validationKey: text(row, 'validation_key'),
    repository: text(row, 'repository'),
    status: text(row, 'status') as ValidationStatus,
    checks: decodeCheckResults(text(row, 'checks'), `validations.checks of ${text(row, 'instance_id')}`),
    failToPass: textList(row, 'fail_to_pass'),
    flakyTests: textList(row, 'flaky_tests'),
    droppedTests: textList(row, 'dropped_tests'),
    toolVersion: text(row, 'tool_version'),
    pythonVersion: text(row, 'python_version'),
    packagesHash: text(row, 'packages_hash'),
    environmentKey: text(row, 'environment_key'),
    runIds: textList(row, 'run_ids'),
    repeat: integer(row, 'repeat'),
    seconds: double(row, 'seconds'),
    validatedAt: timestamp(row, 'validated_at'),
    passingWithoutBody: textList(row, 'passing_without_body'),
    withoutBodyComplete: row.without_body_complete === null ? null : boolean(row, 'without_body_complete'),
    goldFrom: text(row, 'gold_from') as GoldSource,
    goldBaselineKey: nullableText(row, 'gold_baseline_key'),
  };
}
