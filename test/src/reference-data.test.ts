import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-paths.js';

/**
 * REPOCOD's published figures, transcribed in datasets/repocod/reference/: every table must add up the
 * way the paper's do (the levels to a repository's total, the repositories to the table's total, each
 * mean the tasks' weighted mean), so that a typo in a transcribed cell cannot go unseen.
 */
interface Cell {
  readonly nl: number | null;
  readonly gt: number | null;
  readonly cyclo: number | null;
  readonly tasks: number;
}
type Row = Record<'repo-level' | 'file-level' | 'self-contained' | 'all', Cell>;
interface Table {
  readonly source: string;
  readonly repositories: Record<string, Row>;
  readonly total: Row;
}

const REFERENCE = join(PROJECT_ROOT, 'datasets/repocod/reference');
const LEVELS = ['repo-level', 'file-level', 'self-contained'] as const;
const REPOCOD_TASKS: Record<string, number> = {
  astropy: 85,
  datasets: 59,
  flask: 43,
  'more-itertools': 86,
  'plotly.py': 76,
  pylint: 26,
  'scikit-learn': 314,
  seaborn: 78,
  sphinx: 33,
  sympy: 97,
  xarray: 83,
};
const LITE_TASKS: Record<string, number> = {
  astropy: 16,
  datasets: 6,
  flask: 3,
  'more-itertools': 1,
  'plotly.py': 38,
  pylint: 1,
  'scikit-learn': 61,
  seaborn: 7,
  sphinx: 1,
  sympy: 44,
  xarray: 22,
};

function table(name: string): Table {
  return JSON.parse(readFileSync(join(REFERENCE, name), 'utf8')) as Table;
}

/** The weighted mean of cells (a level's or a repository's), as the paper rounds it: one decimal. */
function weighted(cells: readonly Cell[], field: 'nl' | 'gt' | 'cyclo'): number {
  const counted = cells.filter((cell) => cell.tasks > 0);
  const tasks = counted.reduce((sum, cell) => sum + cell.tasks, 0);
  return counted.reduce((sum, cell) => sum + (cell[field] ?? 0) * cell.tasks, 0) / tasks;
}

describe("REPOCOD's published figures", () => {
  for (const [name, totals] of [
    ['full-v4.json', REPOCOD_TASKS],
    ['full-v1.json', REPOCOD_TASKS],
    ['lite.json', LITE_TASKS],
  ] as const) {
    it(`${name}: the levels add up to each repository, the repositories to the total`, () => {
      const data = table(name);
      expect(data.source).toMatch(/REPOCOD|arXiv:2410\.21647/);
      expect(Object.fromEntries(Object.entries(data.repositories).map(([repo, row]) => [repo, row.all.tasks]))).toEqual(
        totals,
      );
      for (const [repo, row] of Object.entries(data.repositories)) {
        const levels = LEVELS.map((level) => row[level]);
        expect(
          levels.reduce((sum, cell) => sum + cell.tasks, 0),
          repo,
        ).toBe(row.all.tasks);
        for (const cell of levels) if (cell.tasks === 0) expect(cell.nl, repo).toBeNull();
        // Each repository's means are its levels' weighted means (the paper rounds to a tenth; its
        // cells round on their own: the transcription is off by at most 0.08).
        for (const field of ['nl', 'gt', 'cyclo'] as const) {
          expect(Math.abs(weighted(levels, field) - (row.all[field] ?? 0)), `${repo} ${field}`).toBeLessThan(0.15);
        }
      }
      for (const level of [...LEVELS, 'all'] as const) {
        const cells = Object.values(data.repositories).map((row) => row[level]);
        expect(
          cells.reduce((sum, cell) => sum + cell.tasks, 0),
          level,
        ).toBe(data.total[level].tasks);
        for (const field of ['nl', 'gt', 'cyclo'] as const) {
          expect(Math.abs(weighted(cells, field) - (data.total[level][field] ?? 0)), `${level} ${field}`).toBeLessThan(
            0.15,
          );
        }
      }
    });
  }

  it("lite.json: REPOCOD-Lite's 66 self-contained, 67 file-level and 67 repository-level tasks", () => {
    const total = table('lite.json').total;
    expect([total['self-contained'].tasks, total['file-level'].tasks, total['repo-level'].tasks]).toEqual([66, 67, 67]);
  });

  it('bins.json: each binning holds the 980 tasks', () => {
    const bins = JSON.parse(readFileSync(join(REFERENCE, 'bins.json'), 'utf8')) as {
      solution_tokens: { tasks: number }[];
      cyclomatic_complexity: { tasks: number }[];
    };
    expect(bins.solution_tokens.reduce((sum, bin) => sum + bin.tasks, 0)).toBe(980);
    expect(bins.cyclomatic_complexity.reduce((sum, bin) => sum + bin.tasks, 0)).toBe(980);
  });
});
