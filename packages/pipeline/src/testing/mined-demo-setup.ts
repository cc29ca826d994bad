import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCatalog } from '@repocod/catalog';
import type { TestProject } from 'vitest/node';
import { runMineCommand } from '../commands/mine.js';

/**
 * Vitest global setup: the demo mined once (fast mode, as every stage's test wants it) into a catalog of
 * its own. The test files that need a mined demo, not the mining itself, open a copy of that catalog with
 * a state folder of their own (mined-demo.ts): their worktrees and environment stay theirs, and the mining
 * answers from the catalog. Mining's own tests still mine.
 */
const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), 'repocod-mined-demo-'));
  const catalogPath = join(folder, 'catalog.duckdb');
  const catalog = await openCatalog(catalogPath);
  try {
    const stateRoot = join(folder, 'state');
    await runMineCommand(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot,
      repository: 'demo',
      workers: 2,
      mode: 'fast',
    });
  } finally {
    await catalog.close();
  }
  project.provide('minedDemoCatalog', catalogPath);
  return () => rmSync(folder, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    minedDemoCatalog: string;
  }
}
