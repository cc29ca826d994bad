import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog } from './catalog.js';
import { openCatalog } from './catalog.js';

let catalog: Catalog;
beforeEach(async () => {
  catalog = await openCatalog(':memory:');
});
afterEach(async () => {
  await catalog.close();
});

const key = { repository: 'flask', baseCommit: 'a'.repeat(40), blameArgs: '-w -M -C' };

describe('the body history store', () => {
  it('keeps each body date under its base commit and blame options, replacing a function dated again', async () => {
    await catalog.saveBodyHistory(key, [
      { functionId: 'f1', bodyCommit: 'c1', bodyChangedAt: new Date('2024-03-01T10:00:00Z') },
      { functionId: 'f2', bodyCommit: null, bodyChangedAt: null },
      { functionId: 'f3', bodyCommit: 'c3', bodyChangedAt: null },
    ]);
    await catalog.saveBodyHistory(key, [
      { functionId: 'f1', bodyCommit: 'c9', bodyChangedAt: new Date('2025-07-02T08:30:00Z') },
    ]);
    const rows = await catalog.bodyHistory(key);
    expect([...rows.values()]).toEqual([
      { functionId: 'f1', bodyCommit: 'c9', bodyChangedAt: new Date('2025-07-02T08:30:00Z') },
      { functionId: 'f2', bodyCommit: null, bodyChangedAt: null },
      { functionId: 'f3', bodyCommit: 'c3', bodyChangedAt: null },
    ]);
    // Another era of the repository, or another way of dating, is another key: nothing is shared.
    expect((await catalog.bodyHistory({ ...key, baseCommit: 'b'.repeat(40) })).size).toBe(0);
    expect((await catalog.bodyHistory({ ...key, blameArgs: '-w' })).size).toBe(0);
  });

  it('lists the ways a repository was dated at a base commit, the most recent first, with their rows', async () => {
    expect(await catalog.bodyHistoryDatings('flask', key.baseCommit)).toEqual([]);
    await catalog.saveBodyHistory(key, [
      { functionId: 'f1', bodyCommit: 'c1', bodyChangedAt: new Date('2024-03-01T10:00:00Z') },
      { functionId: 'f2', bodyCommit: 'c2', bodyChangedAt: new Date('2024-03-02T10:00:00Z') },
    ]);
    // dated_at is the time of saving: wait a moment so that the second dating is the more recent.
    await new Promise((done) => setTimeout(done, 5));
    const other = { ...key, blameArgs: 'release-diff against 1.0' };
    await catalog.saveBodyHistory(other, [{ functionId: 'f1', bodyCommit: 'r', bodyChangedAt: new Date() }]);
    await catalog.saveBodyHistory({ ...key, baseCommit: 'b'.repeat(40) }, [
      { functionId: 'f1', bodyCommit: 'c1', bodyChangedAt: new Date('2024-03-01T10:00:00Z') },
    ]);
    const datings = await catalog.bodyHistoryDatings('flask', key.baseCommit);
    expect(datings.map(({ blameArgs, rows }) => ({ blameArgs, rows }))).toEqual([
      { blameArgs: 'release-diff against 1.0', rows: 1 },
      { blameArgs: '-w -M -C', rows: 2 },
    ]);
    expect(datings[0]?.datedAt.getTime()).toBeGreaterThan(datings[1]?.datedAt.getTime() ?? Number.NaN);
  });
});
