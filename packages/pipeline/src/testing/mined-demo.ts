import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { inject } from 'vitest';

/**
 * Test support: a copy of the catalog in which the global setup mined the demo (mined-demo-setup.ts),
 * placed in `stateRoot` and opened. Mining the demo again from it runs no test: every function is answered
 * from the catalog, and only the environment and worktrees are made, in `stateRoot`.
 */
export async function openMinedDemo(stateRoot: string): Promise<Catalog> {
  const copy = join(stateRoot, 'catalog.duckdb');
  copyFileSync(inject('minedDemoCatalog'), copy);
  return openCatalog(copy);
}
