import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import { okExtraction } from './testing/test-support.js';

describe('appendTrailingDefaults', () => {
  let catalog: Catalog;
  beforeEach(async () => {
    catalog = await openCatalog(':memory:');
  });
  afterEach(() => catalog.close());

  it('lets the writers keep working after a migration adds columns with defaults', async () => {
    await catalog.query("ALTER TABLE functions ADD COLUMN review TEXT DEFAULT 'pending'");
    await catalog.query('ALTER TABLE files ADD COLUMN size_bytes INTEGER DEFAULT 0');
    await catalog.replaceFiles('repo', [okExtraction('a.py', 2)]);
    expect((await catalog.query('SELECT DISTINCT review FROM functions')).rows).toEqual([['pending']]);
    expect((await catalog.query('SELECT size_bytes FROM files')).rows).toEqual([[0]]);
    expect(await catalog.functions('repo')).toHaveLength(2);
  });
});
