import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import type { StoredReference, StoredReferenceRow } from './reference-store.js';
import { makeTempDir } from './testing/test-support.js';

const REFERENCE: StoredReference = {
  name: 'flaky',
  source: 'flaky_tests.json',
  revision: null,
  config: null,
  form: 'names',
  contentHash: 'h1',
  addedAt: new Date(Date.UTC(2026, 11, 5, 7, 0, 0)),
};

function row(rowNumber: number, problem: string | null = null): StoredReferenceRow {
  return {
    rowNumber,
    location: `flaky_tests.json: $["sympy"]["${rowNumber}"]`,
    repository: 'sympy',
    repoId: String(rowNumber),
    fields: JSON.stringify('sympify'),
    problem,
  };
}

describe('Catalog references', () => {
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

  it('keeps a reference and its rows, bad ones with their problem, across a reopen', async () => {
    const problem = JSON.stringify({ field: 'function_name', message: 'is empty' });
    await catalog.saveReference(REFERENCE, [row(2), row(1), row(3, problem)]);
    await catalog.close();
    catalog = await openCatalog(path);
    expect(await catalog.reference('flaky')).toEqual(REFERENCE);
    expect(await catalog.referenceRows('flaky')).toEqual([row(1), row(2), row(3, problem)]);
    expect(await catalog.references()).toEqual([{ ...REFERENCE, rows: 3, problems: 1 }]);
    expect(await catalog.reference('other')).toBeNull();
  });

  it('replaces a reference of the same name whole, and removes one', async () => {
    await catalog.saveReference(REFERENCE, [row(1), row(2)]);
    await catalog.saveReference({ ...REFERENCE, contentHash: 'h2', form: 'repocod' }, [row(5)]);
    expect((await catalog.referenceRows('flaky')).map((stored) => stored.rowNumber)).toEqual([5]);
    expect((await catalog.reference('flaky'))?.contentHash).toBe('h2');
    expect(await catalog.removeReference('flaky')).toBe(true);
    expect(await catalog.removeReference('flaky')).toBe(false);
    expect(await catalog.references()).toEqual([]);
  });
});
