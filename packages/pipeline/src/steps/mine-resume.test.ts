import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCatalog } from '@repocod/catalog';
import type { Executor, ExecutorFactory, RunJob } from '@repocod/runner';
import { localExecutor } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import type { MineCommandEvent, MineCommandOptions } from '../commands/mine.js';
import type { MineSummary } from './mine.js';
import { runMineCommand } from '../commands/mine.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-mine-resume-'));
// Nine test files, two a shard: five shards, each traced once and run plain once (k = 2: what is resumed
// does not depend on k, and one plain run a shard is enough to prove the plain jobs resume too).
const options: MineCommandOptions = {
  projectRoot: PROJECT_ROOT,
  stateRoot: state,
  repository: 'demo',
  workers: 2,
  mode: 'fast',
  repeat: 2,
  shardFiles: 2,
  only: ['retry', 'make_sample_catalog', 'PricedItem.price_for'],
};
const BASELINE_JOBS = 10;
const FINISHED_BEFORE_THE_KILL = 4;

/** The local pool, counting the jobs it was given per run() call; with a limit, the run dies after that many jobs. */
function countingExecutor(calls: RunJob[][], limit?: number): ExecutorFactory {
  return (prepared) => {
    const inner = localExecutor(prepared);
    const executor: Executor = {
      parallelism: inner.parallelism,
      async *run(jobs) {
        const taken = limit === undefined ? jobs : jobs.slice(0, limit);
        calls.push([...taken]);
        yield* inner.run(taken);
        if (limit !== undefined) throw new Error('killed after the first shards');
      },
    };
    return executor;
  };
}

function standing(summary: MineSummary): { nodeId: string; status: string; outcomes: readonly string[] }[] {
  return summary.baseline.tests.map(({ nodeId, status, outcomes }) => ({ nodeId, status, outcomes }));
}

describe('a stopped baseline', () => {
  it('resumes from the shards it finished and ends as an uninterrupted one', { timeout: 600_000 }, async () => {
    const catalog = await openCatalog(join(state, 'resumed.duckdb'));
    const fresh = await openCatalog(join(state, 'fresh.duckdb'));
    try {
      const killed: RunJob[][] = [];
      await expect(
        runMineCommand(catalog, { ...options, executor: countingExecutor(killed, FINISHED_BEFORE_THE_KILL) }),
      ).rejects.toThrow(/killed after the first shards/);
      expect(killed).toHaveLength(1);
      expect(
        killed[0]?.every((job) => job.tests === 'all' && (job.paths !== undefined || job.ignore !== undefined)),
      ).toBe(true);

      const resumedCalls: RunJob[][] = [];
      const events: MineCommandEvent[] = [];
      const resumed = await runMineCommand(catalog, {
        ...options,
        executor: countingExecutor(resumedCalls),
        onEvent: (event) => events.push(event),
      });
      // The baseline phase ran only the shards the killed run had not finished.
      expect(resumedCalls[0]).toHaveLength(BASELINE_JOBS - FINISHED_BEFORE_THE_KILL);
      const finishedHashes = new Set(killed[0]?.map((job) => JSON.stringify(job)));
      expect(resumedCalls[0]?.some((job) => finishedHashes.has(JSON.stringify(job)))).toBe(false);
      expect(events.find((event) => event.kind === 'phase-start' && event.phase === 'baseline')).toMatchObject({
        jobs: BASELINE_JOBS - FINISHED_BEFORE_THE_KILL,
        resumed: FINISHED_BEFORE_THE_KILL,
      });

      const uninterruptedCalls: RunJob[][] = [];
      const uninterrupted = await runMineCommand(fresh, { ...options, executor: countingExecutor(uninterruptedCalls) });
      expect(uninterruptedCalls[0]).toHaveLength(BASELINE_JOBS);
      expect(standing(resumed)).toEqual(standing(uninterrupted));
      expect(resumed.baseline.passing.size).toBeGreaterThan(100);
      const sets = (summary: MineSummary): Map<string, readonly string[]> =>
        new Map(summary.functions.map((fn) => [fn.qualname, fn.tests]));
      expect(sets(resumed)).toEqual(sets(uninterrupted));
      expect(resumed.functions.map((fn) => fn.status)).toEqual(['tests', 'tests', 'tests']);
    } finally {
      await catalog.close();
      await fresh.close();
    }
  });
});
