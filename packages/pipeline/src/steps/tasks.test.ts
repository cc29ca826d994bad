import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMinedDemo } from '../testing/mined-demo.js';
import { qualityRemovalLines } from './quality-removals.js';
import { selectStep } from './select.js';
import type { TasksSummary } from './tasks.js';
import { runTasksCommand } from '../commands/tasks.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-tasks-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, repository: 'demo', workers: 2 };
let catalog: Catalog;
let summary: TasksSummary;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  summary = await runTasksCommand(catalog, options);
}, 600_000);

afterAll(async () => {
  await catalog.close();
});

describe('tasks of the demo', () => {
  it('makes one task per mined function, and checks every one of their patches', () => {
    expect(summary.tasks).toHaveLength(52);
    // retry decorates functions when inventory.util is imported: without its body it returns None,
    // so the pre state cannot even load conftest.py. With the body (and the tests removed) it loads:
    // the body is needed at collection, and without it every test fails there, as a task asks.
    expect(summary.failedChecks).toEqual([]);
    const retry = summary.tasks.find((task) => task.instanceId === 'demo-inventory.util.retry');
    expect(retry?.checks).toMatchObject({
      roundTrip: true,
      applies: true,
      collects: true,
      bodyNeededAtCollection: true,
    });
    expect(new Set(summary.tasks.map((task) => task.instanceId)).size).toBe(52);
    expect(summary.tasks.map((task) => task.instanceId)).toContain('demo-inventory.util.retry');
    expect(Object.values(summary.byLevel).reduce((sum, count) => sum + count, 0)).toBe(52);
    expect(Object.keys(summary.byLevel).sort()).toEqual(['file-level', 'repo-level', 'self-contained']);
  });

  it('gives patches that git applies to the checkout, and whose gold restores the base bytes', () => {
    const task = summary.tasks.find((candidate) => candidate.qualname === 'Warehouse.pick');
    expect(task).toBeDefined();
    const folder = mkdtempSync(join(tmpdir(), 'repocod-tasks-apply-'));
    execFileSync('git', ['clone', '-q', join(state, 'repos', 'demo'), folder]);
    const original = readFileSync(join(folder, 'inventory/warehouse.py'), 'utf8');
    for (const [name, patch] of [
      ['pre.code', task?.preCode],
      ['pre.test', task?.preTest],
    ] as const) {
      execFileSync('git', ['apply', '-'], { cwd: folder, input: patch ?? '' });
      expect(name).toBeTruthy();
    }
    const pre = readFileSync(join(folder, 'inventory/warehouse.py'), 'utf8');
    expect(pre).toContain(task?.prompt ?? '');
    expect(pre).not.toContain(task?.solution ?? '');
    for (const patch of [task?.goldTest, task?.goldCode])
      execFileSync('git', ['apply', '-'], { cwd: folder, input: patch ?? '' });
    expect(readFileSync(join(folder, 'inventory/warehouse.py'), 'utf8')).toBe(original);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: folder, encoding: 'utf8' })).toBe('');
  });

  it('fills the problem statements from the templates', () => {
    const task = summary.tasks.find((candidate) => candidate.qualname === 'slugify');
    expect(task?.problemCode).toContain(
      'Complete the body of `slugify` in `inventory/util.py` of the repository demo.',
    );
    expect(task?.problemCode).toContain(task?.prompt.trimEnd() ?? 'x');
    expect(task?.problemTest).toContain(task?.failToPass[0] ?? 'x');
  });

  it('selects per level in SQL, saying when a level has fewer tasks than its quota', async () => {
    const selection = await selectStep(catalog, REPOCOD_LITE_SPEC);
    expect(selection.picks).toHaveLength(52);
    expect(selection.short.map((level) => level.level).sort()).toEqual(['file-level', 'repo-level', 'self-contained']);
    const small = await selectStep(catalog, {
      ...REPOCOD_LITE_SPEC,
      quotas: { 'self-contained': 2, 'file-level': 2, 'repo-level': 2 },
    });
    expect(small.picks).toHaveLength(6);
    for (const level of small.levels) {
      const picks = small.picks.filter((pick) => pick.level === level.level);
      expect(picks.map((pick) => pick.rank)).toEqual([1, 2]);
      expect(picks[0]?.score).toBeGreaterThanOrEqual(picks[1]?.score ?? Infinity);
      expect(level.cutoff).toBe(picks[1]?.score);
    }
    // Same spec, same tasks: same selection.
    expect(
      (
        await selectStep(catalog, {
          ...REPOCOD_LITE_SPEC,
          quotas: { 'self-contained': 2, 'file-level': 2, 'repo-level': 2 },
        })
      ).selectionId,
    ).toBe(small.selectionId);
    await expect(selectStep(catalog, { ...REPOCOD_LITE_SPEC, score: 'no_such_column' }, 'spec.json')).rejects.toThrow(
      /spec\.json: the score or the filter is not valid SQL/,
    );
  });

  it("keeps out what the spec's quality rules refuse, says which rule removed what, and changes nothing without them", {
    timeout: 120_000,
  }, async () => {
    const all = await selectStep(catalog, REPOCOD_LITE_SPEC);
    expect(all.qualityRemoved).toEqual([]);
    expect(all.spec).not.toHaveProperty('quality');
    const short = (await catalog.taskSummaries()).filter((task) => task.solutionLines < 3);
    const suite = (await catalog.suiteSize('demo')) as number;
    const broad = (await catalog.taskSummaries()).filter((task) => task.failToPass.length / suite > 0.1);
    expect(short.length).toBeGreaterThan(0);
    expect(broad.length).toBeGreaterThan(0);
    const ruled = await selectStep(catalog, {
      ...REPOCOD_LITE_SPEC,
      quality: { minSolutionLines: 3, maxFailToPassShare: 0.1 },
    });
    const removed = new Set([...short, ...broad].map((task) => task.instanceId));
    expect(new Set(ruled.qualityRemoved.map((removal) => removal.instanceId))).toEqual(removed);
    expect(ruled.picks.some((pick) => removed.has(pick.instanceId))).toBe(false);
    expect(ruled.picks).toHaveLength(52 - removed.size);
    const first = short[0];
    const finding = ruled.qualityRemoved.find((removal) => removal.instanceId === first?.instanceId)?.findings[0];
    expect(finding).toEqual({
      rule: 'minSolutionLines',
      detail: `${first?.solutionLines} solution line(s), fewer than 3`,
    });
    const lines = qualityRemovalLines(ruled.qualityRemoved);
    expect(lines[0]).toMatch(new RegExp(`^minSolutionLines: ${short.length} task\\(s\\) removed \\(e\\.g\\. `));
    expect(lines[1]).toMatch(new RegExp(`^maxFailToPassShare: ${broad.length} task\\(s\\) removed`));
    expect(ruled.selectionId).not.toBe(all.selectionId);
  });

  it('labels every task under each level mode, and select re-labels under the mode it is asked for', async () => {
    // The demo's manifest names no mode: a curator's project is labelled with deps.
    expect(summary.levelMode).toBe('deps');
    for (const task of summary.tasks) {
      expect(Object.keys(task.levels).sort()).toEqual(['deps', 'repocod-v1', 'repocod-v4']);
      expect(task.level).toBe(task.levels.deps?.level);
    }
    const mix = (mode: 'repocod-v1' | 'repocod-v4' | 'deps'): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const task of summary.tasks) {
        const level = task.levels[mode]?.level ?? 'none';
        counts[level] = (counts[level] ?? 0) + 1;
      }
      return counts;
    };
    expect(mix('repocod-v1')).toEqual({ 'self-contained': 35, 'file-level': 10, 'repo-level': 7 });
    expect(mix('deps')).toEqual({ 'self-contained': 26, 'file-level': 10, 'repo-level': 16 });
    const quotas = { 'self-contained': 3, 'file-level': 3, 'repo-level': 3 };
    const deps = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, quotas });
    expect(deps.spec.levels).toBe('deps');
    const v1 = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, quotas, levels: 'repocod-v1' });
    expect(v1.spec.levels).toBe('repocod-v1');
    expect(v1.selectionId).not.toBe(deps.selectionId);
    // The picks' levels are the v1 labels, and the catalog's tasks now carry them.
    const stored = new Map((await catalog.tasks('demo')).map((task) => [task.instanceId, task]));
    for (const pick of v1.picks) {
      expect(pick.level).toBe(stored.get(pick.instanceId)?.levels['repocod-v1']?.level);
      expect(stored.get(pick.instanceId)?.levelMode).toBe('repocod-v1');
    }
    const moved = summary.tasks.filter((task) => task.levels['repocod-v1']?.level !== task.levels.deps?.level);
    expect(moved.length).toBeGreaterThan(0);
    // A spec naming no mode now follows the tasks' labelling (v1 since the last select); a spec given back
    // its mode gives the same selection again, from the catalog alone.
    expect((await selectStep(catalog, { ...REPOCOD_LITE_SPEC, quotas })).selectionId).toBe(v1.selectionId);
    expect((await selectStep(catalog, { ...REPOCOD_LITE_SPEC, quotas, levels: 'deps' })).selectionId).toBe(
      deps.selectionId,
    );
  });

  it('refuses to select under a mode the tasks were not labelled under, naming the repository to rebuild', async () => {
    await catalog.query(
      "DELETE FROM task_levels WHERE mode = 'repocod-v4' AND instance_id = 'demo-inventory.util.retry'",
    );
    await expect(selectStep(catalog, { ...REPOCOD_LITE_SPEC, levels: 'repocod-v4' })).rejects.toThrow(
      new RegExp(
        String.raw`1 task\(s\) have no label under repocod-v4 \(built before the level modes\), ` +
          String.raw`e\.g\. demo-inventory\.util\.retry; run ${'`'}repocod tasks demo${'`'} again`,
      ),
    );
  });
});
