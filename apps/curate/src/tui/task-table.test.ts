import type { TaskOverview } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import {
  cycleValue,
  describeView,
  filterTasks,
  INITIAL_SORT,
  nextLevel,
  nextSort,
  NO_FILTER,
  repositoriesOf,
  reversedSort,
  SORT_CYCLE,
  sortTasks,
  tableRows,
} from './task-table.js';
import { sampleTask as task } from './sample-task.js';

const TASKS: readonly TaskOverview[] = [
  task('demo-inventory.util.retry', {
    complexity: 2,
    solutionLines: 18,
    tests: 310,
    checksPassed: false,
    selected: false,
    validation: 'not-validated',
  }),
  task('demo-inventory.reports.format_table', {
    complexity: 13,
    solutionLines: 17,
    solutionTokens: 240,
    validation: 'failed',
  }),
  task('demo-inventory.pricing.quote', {
    complexity: 8,
    solutionLines: 29,
    solutionTokens: 249,
    level: 'repo-level',
    promptLines: 25,
  }),
  task('more.itertools.chunked', {
    repository: 'more-itertools',
    complexity: 8,
    level: 'file-level',
    validation: 'infra-error',
  }),
];

const ids = (tasks: readonly TaskOverview[]): string[] => tasks.map((row) => row.instanceId);

describe('sorting', () => {
  it('starts by id and cycles through the columns, numbers largest first', () => {
    expect(ids(sortTasks(TASKS, INITIAL_SORT))).toEqual([
      'demo-inventory.pricing.quote',
      'demo-inventory.reports.format_table',
      'demo-inventory.util.retry',
      'more.itertools.chunked',
    ]);
    const complexity = nextSort(INITIAL_SORT);
    expect(complexity).toEqual({ column: 'complexity', descending: true });
    // Ties (cc 8) keep the ids' order.
    expect(ids(sortTasks(TASKS, complexity))).toEqual([
      'demo-inventory.reports.format_table',
      'demo-inventory.pricing.quote',
      'more.itertools.chunked',
      'demo-inventory.util.retry',
    ]);
    expect(ids(sortTasks(TASKS, reversedSort(complexity)))[0]).toBe('demo-inventory.util.retry');
  });

  it('comes back to id after every column', () => {
    let sort = INITIAL_SORT;
    const seen = [];
    for (let step = 0; step < SORT_CYCLE.length; step += 1) {
      sort = nextSort(sort);
      seen.push(sort.column);
    }
    expect(seen).toEqual(['complexity', 'solutionLines', 'promptLines', 'solutionTokens', 'tests', 'id']);
    expect(sort.descending).toBe(false);
  });

  it('sorts by each numeric column', () => {
    expect(ids(sortTasks(TASKS, { column: 'solutionLines', descending: true }))[0]).toBe(
      'demo-inventory.pricing.quote',
    );
    expect(ids(sortTasks(TASKS, { column: 'solutionTokens', descending: true }))[0]).toBe(
      'demo-inventory.pricing.quote',
    );
    expect(ids(sortTasks(TASKS, { column: 'tests', descending: true }))[0]).toBe('demo-inventory.util.retry');
    expect(ids(sortTasks(TASKS, { column: 'promptLines', descending: true }))[0]).toBe('demo-inventory.pricing.quote');
  });
});

describe('filtering', () => {
  it('filters by repository, level, validation and id text, together', () => {
    expect(ids(filterTasks(TASKS, { ...NO_FILTER, repository: 'more-itertools' }))).toEqual(['more.itertools.chunked']);
    expect(ids(filterTasks(TASKS, { ...NO_FILTER, level: 'repo-level' }))).toEqual(['demo-inventory.pricing.quote']);
    expect(ids(filterTasks(TASKS, { ...NO_FILTER, validation: 'not-validated' }))).toEqual([
      'demo-inventory.util.retry',
    ]);
    expect(ids(filterTasks(TASKS, { ...NO_FILTER, text: 'REPORTS.' }))).toEqual([
      'demo-inventory.reports.format_table',
    ]);
    expect(filterTasks(TASKS, { ...NO_FILTER, repository: 'demo', level: 'file-level' })).toEqual([]);
    expect(tableRows(TASKS, INITIAL_SORT, NO_FILTER)).toHaveLength(4);
  });

  it('cycles a filter from all through each value back to all', () => {
    const repositories = repositoriesOf(TASKS);
    expect(repositories).toEqual(['demo', 'more-itertools']);
    expect(cycleValue(repositories, null)).toBe('demo');
    expect(cycleValue(repositories, 'demo')).toBe('more-itertools');
    expect(cycleValue(repositories, 'more-itertools')).toBeNull();
    expect(cycleValue([], null)).toBeNull();
    expect([nextLevel(null), nextLevel('self-contained'), nextLevel('file-level'), nextLevel('repo-level')]).toEqual([
      'self-contained',
      'file-level',
      'repo-level',
      null,
    ]);
  });
});

describe('describeView', () => {
  it('names the sort and only the filters in force', () => {
    expect(describeView(INITIAL_SORT, NO_FILTER)).toEqual(['sort id ↑']);
    expect(
      describeView({ column: 'complexity', descending: true }, { ...NO_FILTER, level: 'repo-level', text: 'quote' }),
    ).toEqual(['sort complexity ↓', 'level repo-level', 'id ~ "quote"']);
  });
});
