import { CONTEXT_LEVELS, type ContextLevel } from '@repocod/core';
import type { TaskOverview, TaskValidationStatus } from '@repocod/pipeline';

/**
 * Which tasks the tasks table shows and in what order: a sort column that the `s` key cycles, and
 * filters (repository, level, validation, text in the instance id) that keys cycle through the values
 * the catalog has. Pure, so that the screen only maps keys to these.
 */

export type SortColumn = 'id' | 'complexity' | 'solutionLines' | 'promptLines' | 'solutionTokens' | 'tests';

/** The order `s` goes through; the table starts sorted by id. */
export const SORT_CYCLE: readonly SortColumn[] = [
  'id',
  'complexity',
  'solutionLines',
  'promptLines',
  'solutionTokens',
  'tests',
];

export const SORT_LABELS: Readonly<Record<SortColumn, string>> = {
  id: 'id',
  complexity: 'complexity',
  solutionLines: 'solution lines',
  promptLines: 'prompt lines',
  solutionTokens: 'solution tokens',
  tests: 'tests',
};

export interface TaskSort {
  readonly column: SortColumn;
  readonly descending: boolean;
}

export const VALIDATION_CYCLE: readonly TaskValidationStatus[] = ['passed', 'failed', 'infra-error', 'not-validated'];

/** Each filter is null when it lets every task through. */
export interface TaskFilter {
  readonly repository: string | null;
  readonly level: ContextLevel | null;
  readonly validation: TaskValidationStatus | null;
  /** Part of the instance id, any case; empty lets every task through. */
  readonly text: string;
}

export const INITIAL_SORT: TaskSort = { column: 'id', descending: false };

export const NO_FILTER: TaskFilter = { repository: null, level: null, validation: null, text: '' };

const SORT_VALUES: Readonly<Record<Exclude<SortColumn, 'id'>, (task: TaskOverview) => number>> = {
  complexity: (task) => task.complexity,
  solutionLines: (task) => task.solutionLines,
  promptLines: (task) => task.promptLines,
  solutionTokens: (task) => task.solutionTokens,
  tests: (task) => task.tests,
};

/**
 * The next sort column, in its natural direction: the largest first for numbers (what a curator looks for), ids A to Z.
 */
export function nextSort(sort: TaskSort): TaskSort {
  const column = SORT_CYCLE[(SORT_CYCLE.indexOf(sort.column) + 1) % SORT_CYCLE.length] ?? 'id';
  return { column, descending: column !== 'id' };
}

export function reversedSort(sort: TaskSort): TaskSort {
  return { ...sort, descending: !sort.descending };
}

/** The value after `current` in `values`, going from "all" (null) through each value back to "all". */
export function cycleValue<T>(values: readonly T[], current: T | null): T | null {
  if (current === null) return values[0] ?? null;
  const index = values.indexOf(current);
  return index < 0 || index === values.length - 1 ? null : (values[index + 1] ?? null);
}

export function nextLevel(level: ContextLevel | null): ContextLevel | null {
  return cycleValue(CONTEXT_LEVELS, level);
}

/** The repositories of the tasks, in order. */
export function repositoriesOf(tasks: readonly TaskOverview[]): string[] {
  return [...new Set(tasks.map((task) => task.repository))].sort();
}

export function filterTasks(tasks: readonly TaskOverview[], filter: TaskFilter): TaskOverview[] {
  const text = filter.text.toLowerCase();
  return tasks.filter(
    (task) =>
      (filter.repository === null || task.repository === filter.repository) &&
      (filter.level === null || task.level === filter.level) &&
      (filter.validation === null || task.validation === filter.validation) &&
      (text === '' || task.instanceId.toLowerCase().includes(text)),
  );
}

/** The tasks in the sort's order; ties keep the instance ids' order, so that the table never jitters. */
export function sortTasks(tasks: readonly TaskOverview[], sort: TaskSort): TaskOverview[] {
  const direction = sort.descending ? -1 : 1;
  const byId = (a: TaskOverview, b: TaskOverview): number =>
    a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0;
  if (sort.column === 'id') return [...tasks].sort((a, b) => direction * byId(a, b));
  const value = SORT_VALUES[sort.column];
  return [...tasks].sort((a, b) => direction * (value(a) - value(b)) || byId(a, b));
}

/** The rows of the table. */
export function tableRows(tasks: readonly TaskOverview[], sort: TaskSort, filter: TaskFilter): TaskOverview[] {
  return sortTasks(filterTasks(tasks, filter), sort);
}

/** The sort and the filters in force, as the status line shows them. */
export function describeView(sort: TaskSort, filter: TaskFilter): string[] {
  const parts = [`sort ${SORT_LABELS[sort.column]} ${sort.descending ? '↓' : '↑'}`];
  if (filter.repository !== null) parts.push(`repo ${filter.repository}`);
  if (filter.level !== null) parts.push(`level ${filter.level}`);
  if (filter.validation !== null) parts.push(`validation ${filter.validation}`);
  if (filter.text !== '') parts.push(`id ~ "${filter.text}"`);
  return parts;
}
