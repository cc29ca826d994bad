import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCatalog } from './catalog.js';
import type { MiningBaselineRow } from './index.js';
import { makeTempDir } from './testing/test-support.js';

const baselineRow = (nodeId: string): MiningBaselineRow => ({
  nodeId,
  status: 'passing',
  outcomes: ['passed'],
  reason: null,
  seconds: 0.1,
});

describe('Catalog job costs', () => {
  it('sums the jobs of a repository, stage and phase across reopenings, and sizes the suite', async () => {
    const { dir, cleanup } = await makeTempDir();
    const path = join(dir, 'catalog.duckdb');
    const at = new Date(Date.UTC(2026, 11, 6, 12, 0, 0));
    const job = { repository: 'demo@0123456789ab', stage: 'mine', phase: 'traced' };
    try {
      let catalog = await openCatalog(path);
      await catalog.addJobCost({ ...job, jobs: 1, processes: 1, testExecutions: 300, busySeconds: 12.5 }, at);
      await catalog.addJobCost({ ...job, phase: 'mutation', jobs: 1, processes: 1, testExecutions: 7, busySeconds: 1 });
      await catalog.close();
      // A resumed build adds to what the killed one had spent.
      catalog = await openCatalog(path);
      await catalog.addJobCost({ ...job, jobs: 2, processes: 6, testExecutions: 16, busySeconds: 0.25 }, at);
      await catalog.addJobCost(
        { ...job, repository: 'other@ba9876543210', jobs: 1, processes: 1, testExecutions: 1, busySeconds: 3 },
        at,
      );
      const demo = await catalog.jobCosts('demo@0123456789ab');
      expect(
        demo.map(({ phase, jobs, processes, testExecutions, busySeconds }) => ({
          phase,
          jobs,
          processes,
          testExecutions,
          busySeconds,
        })),
      ).toEqual([
        { phase: 'mutation', jobs: 1, processes: 1, testExecutions: 7, busySeconds: 1 },
        { phase: 'traced', jobs: 3, processes: 7, testExecutions: 316, busySeconds: 12.75 },
      ]);
      expect(demo[1]?.updatedAt).toEqual(at);
      expect((await catalog.jobCosts()).map((cost) => cost.repository)).toEqual([
        'demo@0123456789ab',
        'demo@0123456789ab',
        'other@ba9876543210',
      ]);
      expect(await catalog.jobCosts('nobody')).toEqual([]);

      expect(await catalog.suiteSize('demo@0123456789ab')).toBeNull();
      await catalog.saveMiningBaseline('demo@0123456789ab', 'k1', ['a', 'b'].map(baselineRow));
      await catalog.saveMiningBaseline('demo@0123456789ab', 'k2', ['a', 'b', 'c'].map(baselineRow));
      expect(await catalog.suiteSize('demo@0123456789ab')).toBe(3);
      await catalog.close();
    } finally {
      await cleanup();
    }
  });
});
