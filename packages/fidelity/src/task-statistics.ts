import type { ContextLevel } from '@repocod/core';
import { CONTEXT_LEVELS } from '@repocod/core';
import type { StatisticsCell, StatisticsRow, StatisticsTable } from './reference-table.js';

/** What REPOCOD's tables report of a task: where it is, its level, its lengths and its complexity. */
export interface MeasuredTask {
  readonly repository: string;
  readonly level: ContextLevel;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly complexity: number;
}

/**
 * Our tasks in the shape of REPOCOD's tables: per repository × level (and over all levels) the count
 * and the means, rounded to one decimal as the paper prints them.
 */
export function taskStatistics(tasks: readonly MeasuredTask[]): StatisticsTable {
  const repositories: Record<string, StatisticsRow> = {};
  for (const repository of [...new Set(tasks.map((task) => task.repository))].sort()) {
    repositories[repository] = statisticsRow(tasks.filter((task) => task.repository === repository));
  }
  return { repositories, total: statisticsRow(tasks) };
}

function statisticsRow(tasks: readonly MeasuredTask[]): StatisticsRow {
  const byLevel = Object.fromEntries(
    CONTEXT_LEVELS.map((level) => [level, statisticsCell(tasks.filter((task) => task.level === level))]),
  ) as Record<ContextLevel, StatisticsCell>;
  return { ...byLevel, all: statisticsCell(tasks) };
}

export function statisticsCell(tasks: readonly MeasuredTask[]): StatisticsCell {
  const mean = (values: readonly number[]): number | null =>
    values.length === 0 ? null : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
  return {
    tasks: tasks.length,
    nl: mean(tasks.map((task) => task.promptTokens)),
    gt: mean(tasks.map((task) => task.solutionTokens)),
    cyclo: mean(tasks.map((task) => task.complexity)),
  };
}
