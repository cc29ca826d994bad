import type { ValidationRow } from '@repocod/catalog';
import type { ValidationCheck } from './validation-jobs.js';
import { VALIDATION_CHECKS } from './validation-jobs.js';
import type { CheckResult, CheckStatus } from './validation-verdict.js';

/** The checks of a stored validation (the catalog reads `validations.checks` back checked). */
export function checksOf(row: Pick<ValidationRow, 'checks'>): readonly CheckResult[] {
  return row.checks;
}

export interface ValidationCounts {
  readonly tasks: number;
  readonly byStatus: Readonly<Record<CheckStatus, number>>;
  /** Per check, how many tasks passed it, failed it, or could not be judged. */
  readonly byCheck: Readonly<Record<ValidationCheck, Readonly<Record<CheckStatus, number>>>>;
  readonly flakyTests: number;
  readonly tasksWithFlakyTests: number;
  readonly droppedTests: number;
  /** Tasks with tests seen passing without the body (kept in FAIL_TO_PASS unless narrowed), and those tests. */
  readonly tasksPassingWithoutBody: number;
  readonly passingWithoutBody: number;
  /** Tasks whose gold check mining's baseline answered (the others ran the gold patches k times). */
  readonly goldFromBaseline: number;
  /** Distinct provenance values over the rows (one each when every task ran in the same environment). */
  readonly toolVersions: readonly string[];
  readonly pythonVersions: readonly string[];
  readonly repeats: readonly number[];
}

/** The figures a validation is summarised by, on the command line and in the dataset card. */
export function countValidations(rows: readonly ValidationRow[]): ValidationCounts {
  const zero = (): Record<CheckStatus, number> => ({ passed: 0, failed: 0, 'infra-error': 0 });
  const byStatus = zero();
  const byCheck = Object.fromEntries(VALIDATION_CHECKS.map((check) => [check, zero()])) as Record<
    ValidationCheck,
    Record<CheckStatus, number>
  >;
  for (const row of rows) {
    byStatus[row.status]++;
    for (const check of checksOf(row)) byCheck[check.check][check.status]++;
  }
  const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)].sort();
  return {
    tasks: rows.length,
    byStatus,
    byCheck,
    flakyTests: rows.reduce((sum, row) => sum + row.flakyTests.length, 0),
    tasksWithFlakyTests: rows.filter((row) => row.flakyTests.length > 0).length,
    droppedTests: rows.reduce((sum, row) => sum + row.droppedTests.length, 0),
    tasksPassingWithoutBody: rows.filter((row) => row.passingWithoutBody.length > 0).length,
    passingWithoutBody: rows.reduce((sum, row) => sum + row.passingWithoutBody.length, 0),
    goldFromBaseline: rows.filter((row) => row.goldFrom === 'baseline').length,
    toolVersions: distinct(rows.map((row) => row.toolVersion)),
    pythonVersions: distinct(rows.map((row) => row.pythonVersion)),
    repeats: distinct(rows.map((row) => row.repeat)),
  };
}

/** The first check a task did not pass, with its detail: why the task is left out. */
export function firstProblem(row: Pick<ValidationRow, 'checks'>): CheckResult | undefined {
  return checksOf(row).find((check) => check.status !== 'passed');
}
