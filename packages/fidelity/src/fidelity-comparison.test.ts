import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareBins } from './bin-comparison.js';
import { compareWithReference, fidelityLine, sumRows } from './fidelity-comparison.js';
import { cellText, fidelityMarkdown } from './fidelity-markdown.js';
import { readReferenceBins, readReferenceTable } from './reference-table.js';
import type { MeasuredTask } from './task-statistics.js';
import { taskStatistics } from './task-statistics.js';

const REFERENCE = resolve(new URL('../../..', import.meta.url).pathname, 'datasets/repocod/reference');

const task = (repository: string, level: MeasuredTask['level'], tokens: number, complexity: number): MeasuredTask => ({
  repository,
  level,
  promptTokens: tokens * 2,
  solutionTokens: tokens,
  complexity,
});

describe('taskStatistics', () => {
  it('counts and averages per repository × level and over all, one decimal', () => {
    const table = taskStatistics([
      task('flask', 'self-contained', 10, 1),
      task('flask', 'self-contained', 11, 2),
      task('flask', 'repo-level', 100, 9),
    ]);
    expect(table.repositories.flask?.['self-contained']).toEqual({ tasks: 2, nl: 21, gt: 10.5, cyclo: 1.5 });
    expect(table.repositories.flask?.['file-level']).toEqual({ tasks: 0, nl: null, gt: null, cyclo: null });
    expect(table.repositories.flask?.all).toEqual({ tasks: 3, nl: 80.7, gt: 40.3, cyclo: 4 });
    expect(table.total.all.tasks).toBe(3);
  });
});

describe('compareWithReference', () => {
  const full = readReferenceTable(REFERENCE, 'full-v4');
  const ours = taskStatistics([
    ...Array.from({ length: 86 }, () => task('flask', 'file-level', 200, 5)),
    task('my-own', 'self-contained', 50, 2),
  ]);
  const comparison = compareWithReference(ours, full);

  it("puts every REPOCOD repository beside ours, 0 where we have none, a curator's own without REPOCOD's", () => {
    expect(comparison.rows.map((row) => row.repository)).toContain('astropy');
    const astropy = comparison.rows.find((row) => row.repository === 'astropy');
    expect(astropy?.cells.all.ours.tasks).toBe(0);
    expect(astropy?.fidelity.taskRatio).toBe(0);
    const own = comparison.rows.find((row) => row.repository === 'my-own');
    expect(own?.cells.all.theirs).toBeNull();
    expect(fidelityLine(own ?? comparison.total)).toBe('my-own: 1 tasks (not a REPOCOD repository)');
  });

  it('gives the ratio and the mean differences, and a total over our repositories only', () => {
    const flask = comparison.rows.find((row) => row.repository === 'flask');
    const theirs = full.repositories.flask?.all;
    expect(flask?.fidelity.taskRatio).toBe(2);
    expect(flask?.fidelity.gtDelta).toBeCloseTo(200 - (theirs?.gt ?? 0), 1);
    const line = fidelityLine(flask ?? comparison.total);
    expect(line).toMatch(/^flask: 86 tasks for REPOCOD's 43 \(2\.00×\); #NL [+−]/);
    // REPOCOD's side of the total is flask's alone (my-own is not REPOCOD's): not the 980 of all eleven.
    expect(comparison.total.cells.all.theirs?.tasks).toBe(43);
    expect(comparison.total.cells.all.ours.tasks).toBe(87);
  });

  it('weights the means of several rows by their task counts', () => {
    const a = { tasks: 1, nl: 10, gt: 10, cyclo: 1 };
    const b = { tasks: 3, nl: 20, gt: 30, cyclo: null };
    const none = { tasks: 0, nl: null, gt: null, cyclo: null };
    const row = (cell: typeof a | typeof b) => ({
      all: cell,
      'self-contained': cell,
      'file-level': none,
      'repo-level': none,
    });
    expect(sumRows([row(a), row(b)]).all).toEqual({ tasks: 4, nl: 17.5, gt: 25, cyclo: 1 });
    expect(sumRows([row(a), row(b)])['file-level']).toEqual(none);
  });

  it('writes cells as ours / theirs (difference) and the whole comparison as Markdown', () => {
    expect(cellText({ ours: { tasks: 0, nl: null, gt: null, cyclo: null }, theirs: full.total.all }, 'tasks')).toBe(
      '0 / 980 (−980)',
    );
    expect(cellText({ ours: full.total.all, theirs: null }, 'nl')).toBe('461.1 / –');
    const markdown = fidelityMarkdown('Tasks', comparison, compareBins([], readReferenceBins(REFERENCE)));
    expect(markdown).toMatch(/\| flask \| all \| 86 \/ 43 \(\+43\) \| /);
    expect(markdown).toMatch(/\| total \| all \| 87 \/ 43 \(\+44\) \|/);
    expect(markdown).toMatch(/- flask: 86 tasks for REPOCOD's 43 \(2\.00×\)/);
    expect(markdown).toMatch(/\| 0–65 \| 0 \(0\.0%\) \| 201 \(20\.5%\) \|/);
  });
});

describe('compareBins', () => {
  it("counts our tasks in Figure 4's bins, a solution past REPOCOD's longest in the last bin", () => {
    const bins = compareBins(
      [task('x', 'self-contained', 65, 2), task('x', 'self-contained', 66, 3), task('x', 'repo-level', 9000, 40)],
      readReferenceBins(REFERENCE),
    );
    const [tokens, complexity] = bins;
    expect(tokens?.bins.map((bin) => [bin.label, bin.ours])).toEqual([
      ['0–65', 1],
      ['66–127', 1],
      ['128–231', 0],
      ['232–434', 0],
      ['435–4308', 1],
    ]);
    expect(complexity?.bins.map((bin) => [bin.label, bin.ours])).toEqual([
      ['≤ 2', 1],
      ['3–5', 1],
      ['6–10', 0],
      ['≥ 11', 1],
    ]);
    expect(tokens?.bins[0]?.oursShare).toBe(33.3);
  });
});
