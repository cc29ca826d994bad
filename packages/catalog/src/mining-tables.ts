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
import type { BaselineTest, CoverageEntry, FunctionMiningResult, MiningMode, TestOutcome } from '@repocod/core';

/* The shapes @repocod/mining hands over are core's (mining-result.ts): the catalog keeps them as they come. */

export type { MiningMode } from '@repocod/core';

/** A test's standing over the k baseline runs of one mining key, a row of `mining_baseline`. */
export type MiningBaselineRow = BaselineTest;

/** What the coverage run saw of one function, a row of `mining_coverage`. */
export type MiningCoverageRow = CoverageEntry & { readonly functionId: string };

/** One function's mining result, a row of `relevant_tests`. */
export type RelevantTestsRow = FunctionMiningResult & { readonly functionId: string };

export type StoredRelevantTests = RelevantTestsRow & {
  readonly repository: string;
  readonly miningKey: string;
  readonly mode: MiningMode;
  readonly minedAt: Date;
};

const TEXT_LIST = LIST(VARCHAR);

export const MINING_BASELINE_COLUMNS = [
  'repository',
  'mining_key',
  'node_id',
  'status',
  'outcomes',
  'reason',
  'seconds',
] as const;
export const MINING_COVERAGE_COLUMNS = [
  'repository',
  'mining_key',
  'function_id',
  'tests',
  'subprocess_tests',
  'import_time',
] as const;
export const RELEVANT_TESTS_COLUMNS = [
  'repository',
  'mining_key',
  'mode',
  'function_id',
  'qualname',
  'status',
  'tests',
  'reason',
  'method',
  'candidates',
  'seconds',
  'mined_at',
] as const;

export function appendBaselineRow(
  appender: DuckDBAppender,
  repository: string,
  miningKey: string,
  row: MiningBaselineRow,
): void {
  appender.appendVarchar(repository);
  appender.appendVarchar(miningKey);
  appender.appendVarchar(row.nodeId);
  appender.appendVarchar(row.status);
  appender.appendList(listValue([...row.outcomes]), TEXT_LIST);
  if (row.reason === null) appender.appendNull();
  else appender.appendVarchar(row.reason);
  appender.appendDouble(row.seconds);
  appendTrailingDefaults(appender, MINING_BASELINE_COLUMNS.length);
  appender.endRow();
}

export function baselineRowFrom(row: Row): MiningBaselineRow {
  return {
    nodeId: text(row, 'node_id'),
    status: text(row, 'status') as MiningBaselineRow['status'],
    // The column holds what the runner reported: TestOutcome's words.
    outcomes: textList(row, 'outcomes') as TestOutcome[],
    reason: nullableText(row, 'reason'),
    seconds: double(row, 'seconds'),
  };
}

export function appendCoverageRow(
  appender: DuckDBAppender,
  repository: string,
  miningKey: string,
  row: MiningCoverageRow,
): void {
  appender.appendVarchar(repository);
  appender.appendVarchar(miningKey);
  appender.appendVarchar(row.functionId);
  appender.appendList(listValue([...row.tests]), TEXT_LIST);
  appender.appendList(listValue([...row.subprocessTests]), TEXT_LIST);
  appender.appendBoolean(row.importTime);
  appendTrailingDefaults(appender, MINING_COVERAGE_COLUMNS.length);
  appender.endRow();
}

export function coverageRowFrom(row: Row): MiningCoverageRow {
  return {
    functionId: text(row, 'function_id'),
    tests: textList(row, 'tests'),
    subprocessTests: textList(row, 'subprocess_tests'),
    importTime: boolean(row, 'import_time'),
  };
}

export function appendRelevantTestsRow(
  appender: DuckDBAppender,
  repository: string,
  miningKey: string,
  mode: MiningMode,
  row: RelevantTestsRow,
  minedAt: Date,
): void {
  appender.appendVarchar(repository);
  appender.appendVarchar(miningKey);
  appender.appendVarchar(mode);
  appender.appendVarchar(row.functionId);
  appender.appendVarchar(row.qualname);
  appender.appendVarchar(row.status);
  appender.appendList(listValue([...row.tests]), TEXT_LIST);
  if (row.reason === null) appender.appendNull();
  else appender.appendVarchar(row.reason);
  appender.appendVarchar(row.method);
  appender.appendInteger(row.candidates);
  appender.appendDouble(row.seconds);
  appender.appendTimestamp(timestampValueOf(minedAt));
  appendTrailingDefaults(appender, RELEVANT_TESTS_COLUMNS.length);
  appender.endRow();
}

export function relevantTestsRowFrom(row: Row): StoredRelevantTests {
  return {
    repository: text(row, 'repository'),
    miningKey: text(row, 'mining_key'),
    mode: text(row, 'mode') as MiningMode,
    functionId: text(row, 'function_id'),
    qualname: text(row, 'qualname'),
    status: text(row, 'status') as RelevantTestsRow['status'],
    tests: textList(row, 'tests'),
    reason: nullableText(row, 'reason'),
    method: text(row, 'method') as RelevantTestsRow['method'],
    candidates: integer(row, 'candidates'),
    seconds: double(row, 'seconds'),
    minedAt: timestamp(row, 'mined_at'),
  };
}
