import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import { makeTempDir, syntheticRun } from './testing/test-support.js';

describe('Catalog stage times and environments', () => {
  let catalog: Catalog;
  let path: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    path = join(dir, 'catalog.duckdb');
    catalog = await openCatalog(path);
  });
  afterEach(async () => {
    await catalog.close();
    await cleanup();
  });

  it('keeps the last time of each stage per repository, also after reopening the file', async () => {
    const first = new Date(Date.UTC(2024, 8, 1, 10, 0, 0));
    const later = new Date(Date.UTC(2024, 8, 1, 11, 0, 0));
    await catalog.recordStageTime({ repository: 'demo', stage: 'mine', seconds: 90.5, finishedAt: first });
    await catalog.recordStageTime({ repository: 'demo', stage: 'extract', seconds: 1.25, finishedAt: first });
    await catalog.recordStageTime({ repository: 'other', stage: 'mine', seconds: 7, finishedAt: first });
    await catalog.recordStageTime({ repository: 'demo', stage: 'mine', seconds: 12, finishedAt: later });
    await catalog.close();
    catalog = await openCatalog(path);
    expect(await catalog.stageTimes('demo')).toEqual([
      { repository: 'demo', stage: 'extract', seconds: 1.25, finishedAt: first },
      { repository: 'demo', stage: 'mine', seconds: 12, finishedAt: later },
    ]);
    expect(await catalog.stageTimes('nobody')).toEqual([]);
  });

  it('names the environment of the latest run at a commit, and none without a run there', async () => {
    const commit = '2fec0b206c6e83ea813ab26597e15c96fab08be7';
    await catalog.recordRun(syntheticRun('early', 1, { environmentKey: 'env-old' }), []);
    await catalog.recordRun(syntheticRun('late', 5, { environmentKey: 'env-new' }), []);
    const elsewhere = syntheticRun('elsewhere', 9, { environmentKey: 'env-other', baseCommit: 'f'.repeat(40) });
    await catalog.recordRun(elsewhere, []);
    expect(await catalog.latestEnvironmentKey('pallets/flask', commit)).toBe('env-new');
    expect(await catalog.latestEnvironmentKey('pallets/flask', 'a'.repeat(40))).toBeNull();
    expect(await catalog.latestEnvironmentKey('demo', commit)).toBeNull();
  });
});
