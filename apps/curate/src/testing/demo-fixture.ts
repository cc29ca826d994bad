import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Catalog } from '@repocod/pipeline';
import { openCatalog } from '@repocod/pipeline';

/** Test support: a private copy of the catalog the whole demo flow made (see demo-fixture-setup.ts). */
export async function openDemoCatalog(): Promise<Catalog> {
  const fixture = inject('demoFixture');
  const copy = join(mkdtempSync(join(tmpdir(), 'repocod-tui-')), 'catalog.duckdb');
  copyFileSync(fixture.catalogPath, copy);
  return openCatalog(copy);
}

export function demoFixture(): ReturnType<typeof inject<'demoFixture'>> {
  return inject('demoFixture');
}
