import { describe, expect, it } from 'vitest';
import { contentHash } from '@repocod/core';
import { IN_MEMORY, openCatalog } from './catalog.js';
import { TASK_COLUMNS, type TaskRow } from './tasks-tables.js';
import { useMigratedDatabase } from './testing/test-support.js';

function task(
  instanceId: string,
  level: TaskRow['level'],
  lines: [number, number],
  overrides: Partial<TaskRow> = {},
): TaskRow {
  return {
    instanceId,
    repository: 'r',
    functionId: `r:m.py:${instanceId}:1`,
    file: 'm.py',
    qualname: instanceId,
    repo: 'o/r',
    baseCommit: 'c0ffee',
    baseCommitTimestamp: '2024-01-01T00:00:00+00:00',
    prompt: 'def f():\n    """Doc."""\n',
    solution: '    return 1\n',
    promptLines: lines[0],
    solutionLines: lines[1],
    promptTokens: 10,
    solutionTokens: 5,
    complexity: 1,
    level,
    levelMode: 'deps',
    levels: { deps: { level, calls: [] } },
    dependencies: [{ name: 'helper', kind: 'function', qualname: 'helper', file: 'm.py', line: 3, via: 'local' }],
    failToPass: ['t.py::test_f'],
    problemCode: 'code',
    problemTest: 'test',
    preCode: 'pre',
    goldCode: 'gold',
    preTest: '',
    goldTest: '',
    checks: {
      roundTrip: true,
      applies: true,
      collects: true,
      bodyNeededAtCollection: false,
      testsNotFound: [],
      messages: [],
    },
    checksPassed: true,
    ...overrides,
  };
}

describe('tasks table', () => {
  const connection = useMigratedDatabase();

  it("keeps each mode's label with its calls, and re-labels every task under another mode", async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      const call = {
        line: 7,
        callee: 'helper',
        file: 'other.py',
        qualname: 'helper',
        definitionLine: 3,
        rule: 'relative-import' as const,
        level: 'repo-level' as const,
      };
      const labelled = task('a', 'self-contained', [3, 4], {
        levelMode: 'deps',
        levels: {
          deps: { level: 'self-contained', calls: [] },
          'repocod-v1': { level: 'repo-level', calls: [call] },
          'repocod-v4': { level: 'file-level', calls: [] },
        },
      });
      const older = task('b', 'file-level', [3, 4], { levels: {} });
      await catalog.replaceTasks('r', [labelled, older]);
      expect((await catalog.task('a'))?.levels).toEqual(labelled.levels);
      expect(await catalog.relabelTasks('repocod-v1')).toEqual(['b']);
      const [a, b] = await catalog.tasks('r');
      expect([a?.level, a?.levelMode]).toEqual(['repo-level', 'repocod-v1']);
      // A task without a label under the mode keeps the one it had.
      expect([b?.level, b?.levelMode]).toEqual(['file-level', 'deps']);
      // Rebuilding a repository's tasks replaces their labels too.
      await catalog.replaceTasks('r', [older]);
      expect((await catalog.query('SELECT count(*) FROM task_levels')).rows).toEqual([[0]]);
      await catalog.query(`INSERT INTO task_levels VALUES ('b', 'r', 'deps', 'file-level', '[{"line":"x"}]')`);
      await expect(catalog.task('b')).rejects.toThrow(/task_levels\.calls of b \(deps\)\[0\]: field "line"/);
    } finally {
      await catalog.close();
    }
  });

  it('reads its JSON columns back as written, an older row with defaults, and names a malformed one', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      const written = task('a', 'file-level', [3, 4], { checksPassed: false });
      await catalog.replaceTasks('r', [written]);
      const read = await catalog.task('a');
      expect(read?.dependencies).toEqual(written.dependencies);
      expect(read?.checks).toEqual(written.checks);
      // A row from before bodyNeededAtCollection and testsNotFound were recorded.
      await catalog.query(`UPDATE tasks SET checks = '{"roundTrip":true,"applies":true,"collects":false}'`);
      expect((await catalog.task('a'))?.checks).toEqual({
        roundTrip: true,
        applies: true,
        collects: false,
        bodyNeededAtCollection: false,
        testsNotFound: [],
        messages: [],
      });
      await catalog.query(`UPDATE tasks SET checks = '{"roundTrip":"yes","applies":true,"collects":true}'`);
      await expect(catalog.task('a')).rejects.toThrow(/tasks\.checks of a: field "roundTrip" is not true or false/);
      await catalog.query(`UPDATE tasks SET checks = '{}', dependencies = '[{"name":"x","kind":"lambda"}]'`);
      await expect(catalog.task('a')).rejects.toThrow(
        /tasks\.dependencies of a\[0\]: field "kind" is "lambda", not one of function, class, method/,
      );
    } finally {
      await catalog.close();
    }
  });

  it('is written in the column order the migration created', async () => {
    const reader = await connection().runAndReadAll(
      `SELECT column_name FROM duckdb_columns() WHERE table_name = 'tasks' ORDER BY column_index`,
    );
    expect(reader.getRows().map((row) => row[0])).toEqual([...TASK_COLUMNS]);
  });
});

describe('ranking and selections', () => {
  it('ranks per level by score, breaks ties by solution tokens then id, and leaves out failed checks', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      await catalog.replaceTasks('r', [
        task('a', 'self-contained', [10, 10]),
        task('b', 'self-contained', [20, 10]),
        task('c', 'self-contained', [10, 10], { solutionTokens: 9 }),
        task('d', 'file-level', [5, 5]),
        task('e', 'repo-level', [50, 50], { checksPassed: false }),
      ]);
      const ranked = await catalog.rankTasks({
        score: 'prompt_lines * solution_lines',
        filter: 'true',
        quotas: { 'self-contained': 2, 'file-level': 5, 'repo-level': 1 },
      });
      expect(ranked.map((row) => [row.instanceId, row.level, row.score, row.rank, row.picked])).toEqual([
        ['d', 'file-level', 25, 1, true],
        ['b', 'self-contained', 200, 1, true],
        ['c', 'self-contained', 100, 2, true],
        ['a', 'self-contained', 100, 3, false],
      ]);
      // A task left out (one that failed validation) makes room for the next of its level.
      const withoutB = await catalog.rankTasks(
        {
          score: 'prompt_lines * solution_lines',
          filter: 'true',
          quotas: { 'self-contained': 2, 'file-level': 5, 'repo-level': 1 },
        },
        ['b'],
      );
      expect(withoutB.filter((row) => row.picked).map((row) => row.instanceId)).toEqual(['d', 'c', 'a']);
      expect(withoutB.find((row) => row.instanceId === 'a')?.rank).toBe(3);
      // A level short of other tasks keeps its first quota, the failed one with them: nothing can replace it.
      const short = await catalog.rankTasks(
        {
          score: 'prompt_lines * solution_lines',
          filter: 'true',
          quotas: { 'self-contained': 3, 'file-level': 5, 'repo-level': 1 },
        },
        ['b'],
      );
      expect(short.filter((row) => row.picked).map((row) => row.instanceId)).toEqual(['d', 'b', 'c', 'a']);
      await catalog.saveSelection(
        's1',
        '{"quotas":{}}',
        ranked.filter((row) => row.picked),
      );
      const stored = await catalog.selection();
      expect(stored?.picks.map((pick) => pick.instanceId)).toEqual(['d', 'b', 'c']);
      await catalog.saveSelection('s2', '{"reference":"lite"}', []);
      expect((await catalog.selections()).map(({ selectionId, spec }) => [selectionId, spec])).toEqual([
        ['s2', '{"reference":"lite"}'],
        ['s1', '{"quotas":{}}'],
      ]);
      expect((await catalog.task('b'))?.failToPass).toEqual(['t.py::test_f']);
      await expect(
        catalog.rankTasks({
          score: 'no_such_column',
          filter: 'true',
          quotas: { 'self-contained': 1, 'file-level': 1, 'repo-level': 1 },
        }),
      ).rejects.toThrow(/ranking the tasks failed/);
    } finally {
      await catalog.close();
    }
  });
});

describe('task summaries', () => {
  it(
    'give every task without its texts, with the sha256 of each patch in the order pre code, pre test, gold code, ' +
      'gold test',
    async () => {
      const catalog = await openCatalog(IN_MEMORY);
      try {
        const written = task('a', 'repo-level', [3, 4], { preTest: 'pre test é', goldTest: '' });
        await catalog.replaceTasks('r', [written, task('b', 'file-level', [1, 1])]);
        const [summary] = await catalog.taskSummaries();
        expect(summary).toMatchObject({ instanceId: 'a', level: 'repo-level', failToPass: written.failToPass });
        expect(summary?.patchHashes).toEqual(
          [written.preCode, written.preTest, written.goldCode, written.goldTest].map((patch) => contentHash(patch)),
        );
      } finally {
        await catalog.close();
      }
    },
  );
});
