import type { ContextLevel } from '@repocod/core';
import { CONTEXT_LEVELS } from '@repocod/core';
import type {
  ReferenceName,
  ReferenceTable,
  StatisticsCell,
  StatisticsRow,
  StatisticsTable,
} from './reference-table.js';

/**
 * Our tables beside REPOCOD's, cell by cell: every repository of either (REPOCOD's without tasks of
 * ours show 0, a curator's own repository has no REPOCOD cell), each level and all levels, and one
 * fidelity line per repository (the task count's ratio and the differences of the three means).
 */
export interface FidelityComparison {
  readonly reference: { readonly name: ReferenceName; readonly source: string; readonly what: string };
  readonly rows: readonly RepositoryComparison[];
  /**
   * Over the repositories that have tasks of ours, REPOCOD's side taken over the same repositories (a
   * partial rebuild is not compared with all eleven).
   */
  readonly total: RepositoryComparison;
}

export interface RepositoryComparison {
  readonly repository: string;
  readonly cells: Readonly<Record<ContextLevel | 'all', CellComparison>>;
  readonly fidelity: Fidelity;
}

export interface CellComparison {
  readonly ours: StatisticsCell;
  /** Null where REPOCOD has no such repository. */
  readonly theirs: StatisticsCell | null;
}

export interface Fidelity {
  /** Our task count over REPOCOD's; null when REPOCOD has none. */
  readonly taskRatio: number | null;
  /** Ours minus REPOCOD's, over all levels; null when either side has no tasks. */
  readonly nlDelta: number | null;
  readonly gtDelta: number | null;
  readonly cycloDelta: number | null;
}

const COLUMNS = [...CONTEXT_LEVELS, 'all'] as const;

export function compareWithReference(ours: StatisticsTable, reference: ReferenceTable): FidelityComparison {
  const names = [...new Set([...Object.keys(reference.repositories), ...Object.keys(ours.repositories)])].sort();
  const rows = names.map((repository) =>
    repositoryComparison(repository, ours.repositories[repository] ?? EMPTY_ROW, reference.repositories[repository]),
  );
  const covered = Object.keys(ours.repositories).filter((name) => (ours.repositories[name]?.all.tasks ?? 0) > 0);
  const theirsCovered = covered.flatMap((name) => {
    const row = reference.repositories[name];
    return row === undefined ? [] : [row];
  });
  return {
    reference: { name: reference.name, source: reference.source, what: reference.what },
    rows,
    total: repositoryComparison('total', ours.total, theirsCovered.length === 0 ? undefined : sumRows(theirsCovered)),
  };
}

function repositoryComparison(
  repository: string,
  ours: StatisticsRow,
  theirs: StatisticsRow | undefined,
): RepositoryComparison {
  const cells = Object.fromEntries(
    COLUMNS.map((column) => [column, { ours: ours[column], theirs: theirs?.[column] ?? null }]),
  ) as Record<ContextLevel | 'all', CellComparison>;
  const all = cells.all;
  const delta = (field: 'nl' | 'gt' | 'cyclo'): number | null => {
    const mine = all.ours[field];
    const published = all.theirs?.[field] ?? null;
    return mine === null || published === null ? null : Math.round((mine - published) * 10) / 10;
  };
  return {
    repository,
    cells,
    fidelity: {
      taskRatio:
        all.theirs === null || all.theirs.tasks === 0
          ? null
          : Math.round((all.ours.tasks / all.theirs.tasks) * 100) / 100,
      nlDelta: delta('nl'),
      gtDelta: delta('gt'),
      cycloDelta: delta('cyclo'),
    },
  };
}

/** Several rows as one: counts added, means weighted by their task counts. */
export function sumRows(rows: readonly StatisticsRow[]): StatisticsRow {
  const cell = (column: (typeof COLUMNS)[number]): StatisticsCell => {
    const cells = rows.map((row) => row[column]);
    const tasks = cells.reduce((sum, one) => sum + one.tasks, 0);
    const weighted = (field: 'nl' | 'gt' | 'cyclo'): number | null => {
      const known = cells.filter((one) => one.tasks > 0 && one[field] !== null);
      const weight = known.reduce((sum, one) => sum + one.tasks, 0);
      if (weight === 0) return null;
      return Math.round((known.reduce((sum, one) => sum + (one[field] ?? 0) * one.tasks, 0) / weight) * 10) / 10;
    };
    return { tasks, nl: weighted('nl'), gt: weighted('gt'), cyclo: weighted('cyclo') };
  };
  return Object.fromEntries(COLUMNS.map((column) => [column, cell(column)])) as StatisticsRow;
}

const EMPTY_CELL: StatisticsCell = { tasks: 0, nl: null, gt: null, cyclo: null };
const EMPTY_ROW: StatisticsRow = Object.fromEntries(COLUMNS.map((column) => [column, EMPTY_CELL])) as StatisticsRow;

/** `flask: 74 tasks for REPOCOD's 43 (1.72×); #NL +12.3, #GT −5.0, cyclo +0.4` */
export function fidelityLine(row: RepositoryComparison): string {
  const { ours, theirs } = row.cells.all;
  const signed = (value: number | null): string =>
    value === null ? '–' : `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}`;
  const count =
    theirs === null
      ? `${ours.tasks} tasks (not a REPOCOD repository)`
      : `${ours.tasks} tasks for REPOCOD's ${theirs.tasks}` +
        (row.fidelity.taskRatio === null ? '' : ` (${row.fidelity.taskRatio.toFixed(2)}×)`);
  const { nlDelta, gtDelta, cycloDelta } = row.fidelity;
  const means = theirs === null ? '' : `; #NL ${signed(nlDelta)}, #GT ${signed(gtDelta)}, cyclo ${signed(cycloDelta)}`;
  return `${row.repository}: ${count}${means}`;
}
