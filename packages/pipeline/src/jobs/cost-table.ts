import type { PhaseCost } from './cost-ledger.js';
import { COST_PHASE_TITLES } from './job-phase.js';

/** A build's cost: its phases (CostLedger) and each repository's suite size, the unit of whole-suite equivalents. */
export interface BuildCost {
  readonly phases: readonly PhaseCost[];
  /** Tests in each repository's baseline (mining's whole suite at the base commit), where it has one. */
  readonly suiteTests: Readonly<Record<string, number>>;
}

/** Test executions as whole suites: executions divided by the suite's size; null without a suite size. */
export function wholeSuites(testExecutions: number, suiteTests: number | undefined): number | null {
  return suiteTests === undefined || suiteTests === 0 ? null : testExecutions / suiteTests;
}

/**
 * The cost as a table for people, a block per repository: each phase's jobs, processes, test executions, whole-suite
 * equivalents and busy seconds, and the repository's total. Empty when nothing ran (the catalog answered it all).
 */
export function costTable(cost: BuildCost, scope = 'the jobs run now'): string[] {
  const lines: string[] = [];
  const repositories = [...new Set(cost.phases.map((phase) => phase.repository))];
  for (const repository of repositories) {
    const rows = cost.phases.filter((phase) => phase.repository === repository);
    const suite = cost.suiteTests[repository];
    lines.push(`cost of ${repository}: ${scope}${suite === undefined ? '' : `, whole suite = ${count(suite)} tests`}`);
    const total = rows.reduce(
      (sum, row) => ({
        jobs: sum.jobs + row.jobs,
        processes: sum.processes + row.processes,
        testExecutions: sum.testExecutions + row.testExecutions,
        busySeconds: sum.busySeconds + row.busySeconds,
      }),
      { jobs: 0, processes: 0, testExecutions: 0, busySeconds: 0 },
    );
    const cells = [
      ...rows.map((row) => [`${row.stage}: ${COST_PHASE_TITLES[row.phase]}`, ...numbers(row, suite)]),
      ['total', ...numbers(total, suite)],
    ];
    const header = ['phase', 'jobs', 'processes', 'test executions', 'whole suites', 'busy s'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)),
    );
    const pad = (cell: string, column: number): string =>
      column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0);
    const format = (row: readonly string[]): string => `  ${row.map(pad).join('  ')}`;
    lines.push(format(header), ...cells.map(format));
  }
  return lines;
}

function numbers(
  row: Pick<PhaseCost, 'jobs' | 'processes' | 'testExecutions' | 'busySeconds'>,
  suite: number | undefined,
): string[] {
  const suites = wholeSuites(row.testExecutions, suite);
  return [
    count(row.jobs),
    count(row.processes),
    count(row.testExecutions),
    suites === null ? '-' : suites.toFixed(2),
    row.busySeconds.toFixed(1),
  ];
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
