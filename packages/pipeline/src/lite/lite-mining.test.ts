import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { SelectionSpec } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractStep } from '../steps/extract.js';
import type { LiteMiningEvent, LiteMiningSummary } from './lite-mining.js';
import { liteMining } from './lite-mining.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { PreparedRepositories, prepareStep } from '../steps/prepare.js';
import type { SelectSummary } from '../steps/select.js';
import { selectStep } from '../steps/select.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runLiteMineCommand } from '../commands/lite-mine.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-lite-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, repository: 'demo', workers: 2 };
// Small quotas, so that Lite-first mining can stop well before the demo's 52 candidates.
const SPEC: SelectionSpec = {
  quotas: { 'self-contained': 5, 'file-level': 5, 'repo-level': 5 },
  score: 'prompt_lines * solution_lines',
  filter: 'true',
};

let full: Catalog;
let lite: Catalog;
let fullSelection: SelectSummary;
let liteSelection: SelectSummary;
let summary: LiteMiningSummary;
const events: LiteMiningEvent[] = [];

beforeAll(async () => {
  // Every candidate mined: the demo as the global setup mined it (mined-demo-setup.ts), in a copy.
  full = await openMinedDemo(state);
  lite = await openCatalog(join(state, 'lite.duckdb'));
  await runTasksCommand(full, options);
  fullSelection = await selectStep(full, SPEC);

  const { repository: _repository, ...common } = options;
  summary = await runLiteMineCommand(lite, {
    ...common,
    repositories: ['demo'],
    spec: SPEC,
    mode: 'fast',
    onEvent: (event) => events.push(event),
  });
  await runTasksCommand(lite, options);
  liteSelection = await selectStep(lite, SPEC);
}, 900_000);

afterAll(async () => {
  await full.close();
  await lite.close();
  rmSync(state, { recursive: true, force: true });
}, 60_000);

describe('Lite-first mining on the demo', () => {
  it('picks exactly the tasks that mining every candidate picks, with the same relevant tests', {
    timeout: 300_000,
  }, async () => {
    expect(fullSelection.picks.length).toBe(15);
    expect(liteSelection.picks.map((pick) => pick.instanceId)).toEqual(
      fullSelection.picks.map((pick) => pick.instanceId),
    );
    expect(liteSelection.selectionId).toBe(fullSelection.selectionId);
    for (const pick of liteSelection.picks) {
      expect((await lite.task(pick.instanceId))?.failToPass).toEqual((await full.task(pick.instanceId))?.failToPass);
    }
  });

  it('mines fewer functions than there are candidates, and says so per level and round', {
    timeout: 300_000,
  }, async () => {
    expect(summary.candidates).toBe(52);
    expect(summary.mined).toBeLessThan(52);
    expect(summary.minedNow).toBe(summary.mined);
    expect((await lite.relevantTests('demo')).length).toBe(summary.mined);
    expect((await full.relevantTests('demo')).length).toBe(52);
    expect(summary.rounds).toBeGreaterThanOrEqual(1);
    expect(summary.plan.done).toBe(true);
    for (const level of summary.plan.levels) {
      expect(level.quota).toBe(5);
      expect(level.target).toBe(6);
      expect(level.state === 'exhausted' || level.found >= level.target).toBe(true);
    }
    expect(events.filter((event) => event.kind === 'lite-round')).toHaveLength(summary.rounds);
    // One baseline for the repository: the traced run of the first round maps every candidate.
    const baselines = events.filter(
      (event) => event.kind === 'lite-mine' && event.event.kind === 'phase-start' && event.event.phase === 'baseline',
    );
    expect(baselines).toHaveLength(1);
    const mined = events.find((event) => event.kind === 'lite-mined');
    expect(
      (await lite.miningCoverage('demo', mined?.kind === 'lite-mined' ? mined.summary.miningKey : '')).length,
    ).toBe(52);
  });

  it('does nothing more when run again: the catalog already answers', { timeout: 300_000 }, async () => {
    const { repository: _repository, ...common } = options;
    // The tasks built since (beforeAll) include one that fails its checks (util.retry): the planner
    // mines replacements for it once, and only once; errors would be retried the same way.
    const failedChecks = (await lite.tasks('demo')).filter((task) => !task.checksPassed).length;
    const first = await runLiteMineCommand(lite, { ...common, repositories: ['demo'], spec: SPEC, mode: 'fast' });
    expect(first.rounds).toBe(failedChecks > 0 ? 1 : 0);
    const again = await runLiteMineCommand(lite, { ...common, repositories: ['demo'], spec: SPEC, mode: 'fast' });
    expect({ rounds: again.rounds, minedNow: again.minedNow }).toEqual({ rounds: 0, minedNow: 0 });
    expect(again.mined).toBe(summary.mined + first.minedNow);
  });

  it('refuses a spec whose score needs what only mining tells, naming the columns it may use', {
    timeout: 300_000,
  }, async () => {
    const { repository: _repository, ...common } = options;
    const spec = { ...SPEC, score: 'len(fail_to_pass)' };
    const attempt = runLiteMineCommand(lite, { ...common, repositories: ['demo'], spec, mode: 'fast' });
    await expect(attempt).rejects.toBeInstanceOf(RepocodError);
    await expect(attempt).rejects.toThrow(/cannot rank candidates before mining[\s\S]*prompt_lines[\s\S]*--all/);
  });

  it('mines a round in the order the repositories were given, whatever their candidates score', {
    timeout: 300_000,
  }, async () => {
    const { repository: _repository, ...common } = options;
    // The demo under a second name; the demo itself keeps only its three lowest-scoring candidates, so
    // the plan's first round (quotas bigger than both) starts with the twin's, whichever comes first.
    const demo = await prepareStep('demo', options);
    const twin = { ...demo, entry: { ...demo.entry, name: 'demo-twin' } };
    const catalog = await openCatalog(join(state, 'order.duckdb'));
    try {
      await extractStep(catalog, { root: demo.checkout.path, repository: 'demo' });
      await extractStep(catalog, { root: demo.checkout.path, repository: 'demo-twin' });
      await catalog.query(`UPDATE functions SET is_candidate = false WHERE repository = 'demo' AND function_id NOT IN (
        SELECT function_id FROM functions WHERE repository = 'demo' AND is_candidate
        ORDER BY prompt_lines * solution_lines, function_id LIMIT 3)`);
      const spec = { ...SPEC, quotas: { 'self-contained': 100, 'file-level': 100, 'repo-level': 100 } };
      const prepared = new Map([
        ['demo', demo],
        ['demo-twin', twin],
      ]);
      for (const repositories of [
        ['demo', 'demo-twin'],
        ['demo-twin', 'demo'],
      ]) {
        const asked: string[] = [];
        // Dropping each repository as it is asked ends the run after one round.
        const mineRound = async (request: { repository: string }): Promise<null> => {
          asked.push(request.repository);
          return null;
        };
        const result = await liteMining(catalog, new PreparedRepositories(common, prepared), {
          ...common,
          repositories,
          spec,
          mode: 'fast',
          mineRound,
        });
        expect(asked).toEqual(repositories);
        expect(result.dropped).toEqual(repositories);
      }
    } finally {
      await catalog.close();
    }
  });
});

describe('a repository whose candidates cannot be ranked', () => {
  it('is dropped with its error when the caller asks to be told, and the others are mined', {
    timeout: 300_000,
  }, async () => {
    const { repository: _repository, ...common } = options;
    const demo = await prepareStep('demo', options);
    const prepared = new PreparedRepositories(common, new Map([['demo', demo]]));
    // In no manifest: preparing it fails before anything is ranked, as a blame that fails does.
    const repositories = ['not-in-any-manifest', 'demo'];
    const catalog = await openCatalog(join(state, 'ranking.duckdb'));
    try {
      await extractStep(catalog, { root: demo.checkout.path, repository: 'demo' });
      const asked: string[] = [];
      const failures: [string, string][] = [];
      const result = await liteMining(catalog, prepared, {
        ...common,
        repositories,
        spec: SPEC,
        mode: 'fast',
        mineRound: async (request) => {
          asked.push(request.repository);
          return null;
        },
        onRankingError: (repository, error) => failures.push([repository, (error as Error).message]),
      });
      expect(failures.map(([repository]) => repository)).toEqual(['not-in-any-manifest']);
      expect(failures[0]?.[1]).toMatch(/not-in-any-manifest/);
      expect(asked).toEqual(['demo']);
      expect(result.dropped).toEqual(['not-in-any-manifest', 'demo']);
      // Not asked to be told: the error is thrown and nothing is mined.
      const silent = { ...common, repositories, spec: SPEC, mode: 'fast' as const, mineRound: async () => null };
      await expect(liteMining(catalog, prepared, silent)).rejects.toThrow(/not-in-any-manifest/);
    } finally {
      await catalog.close();
    }
  });
});

describe('a stored mining error', () => {
  it('is mined again by a run, but not asked for again by the check for more rounds', async () => {
    // The mined function with the highest score: the first of its level, above any cut.
    const score = new Map(
      (await lite.functions('demo')).map((fn) => [fn.functionId, fn.metrics.promptLines * fn.metrics.solutionLines]),
    );
    const stored = (await lite.relevantTests('demo', { mode: 'fast' })).filter((row) => row.status === 'tests');
    const mined = stored.sort((a, b) => (score.get(b.functionId) ?? 0) - (score.get(a.functionId) ?? 0))[0];
    if (mined === undefined) throw new Error('the Lite-first run mined no function with tests');
    await lite.saveRelevantTests('demo', mined.miningKey, 'fast', {
      ...mined,
      status: 'error',
      tests: [],
      reason: 'timeout (exit code none): every test failed slowly',
    });
    const { repository: _repository, ...common } = options;
    // Quotas of one: losing that function's task leaves each level above its target either way.
    const spec = { ...SPEC, quotas: { 'self-contained': 1, 'file-level': 1, 'repo-level': 1 } };
    const probe = { ...common, repositories: ['demo'], spec, mode: 'fast' as const, mineRound: async () => null };
    // A run wants the function mined again; the flow's probe takes it as mined, without a task.
    expect((await runLiteMineCommand(lite, probe)).rounds).toBe(1);
    expect((await runLiteMineCommand(lite, { ...probe, retryErrors: false })).rounds).toBe(0);
  }, 120_000);
});
