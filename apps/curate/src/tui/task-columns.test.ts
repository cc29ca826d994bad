import type { TaskOverview } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import { sampleTask } from './sample-task.js';
import { lineText } from './styled-line.js';
import { headerLine, rowLine, taskColumns } from './task-columns.js';
import { displayWidth } from './truncate.js';

const TASKS: readonly TaskOverview[] = [
  sampleTask('demo-inventory.warehouse.Warehouse.receive', {
    level: 'file-level',
    complexity: 5,
    tests: 38,
    validation: 'failed',
    file: 'inventory/warehouse.py',
  }),
  sampleTask('demo-inventory.util.retry', {
    checksPassed: false,
    selected: false,
    validation: 'not-validated',
    tests: 310,
  }),
];

const names = (width: number): string[] => taskColumns(TASKS, width).map((column) => column.name);

describe('taskColumns', () => {
  it('fits 80 columns with short names, giving the rest to the id', () => {
    expect(names(80)).toEqual([
      'id',
      'repository',
      'level',
      'complexity',
      'promptLines',
      'solutionLines',
      'solutionTokens',
      'tests',
      'validation',
    ]);
    for (const task of TASKS)
      expect(displayWidth(lineText(rowLine(task, taskColumns(TASKS, 80), false)))).toBeLessThanOrEqual(80);
    expect(lineText(rowLine(TASKS[0] as TaskOverview, taskColumns(TASKS, 80), false))).toBe(
      ' • …ntory.warehouse.Warehouse.receive demo file   5   10    5    50    38 failed',
    );
  });

  it('adds prompt tokens, full names and the file when wide', () => {
    expect(names(160)).toEqual([
      'id',
      'repository',
      'level',
      'complexity',
      'promptLines',
      'solutionLines',
      'promptTokens',
      'solutionTokens',
      'tests',
      'validation',
      'file',
    ]);
    const row = lineText(rowLine(TASKS[1] as TaskOverview, taskColumns(TASKS, 160), true));
    expect(row).toMatch(
      /^›✗ demo-inventory\.util\.retry +demo self-contained .* not-validated inventory\/util\.py *$/u,
    );
  });

  it('drops the least needed columns when narrow and cuts the id at its start', () => {
    const columns = taskColumns(TASKS, 50);
    expect(columns.map((column) => column.name)).not.toContain('promptLines');
    const row = lineText(rowLine(TASKS[0] as TaskOverview, columns, false));
    expect(displayWidth(row)).toBeLessThanOrEqual(50);
    expect(row).toContain('…');
    expect(row).toContain('receive');
  });

  it('heads the columns, naming the instance id', () => {
    expect(lineText(headerLine(taskColumns(TASKS, 80), 'complexity'))).toMatch(
      /^ {3}instance id +repo level cc p\.ln s\.ln s\.tok tests valid\.$/u,
    );
  });
});
