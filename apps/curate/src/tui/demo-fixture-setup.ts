import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { openCatalog, runFlow } from '@repocod/pipeline';

/**
 * Vitest global setup: the whole flow, run once on the bundled demo into a folder of its own, so that
 * every screen's test reads real catalog data (tasks, levels, validations with failures) without each
 * paying for mining and validation. Tests get the folder through `inject('demoFixture')` and open a
 * copy of its catalog (demo-fixture.ts).
 */
const PROJECT_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), 'repocod-tui-fixture-'));
  const catalogPath = join(folder, 'catalog.duckdb');
  const catalog = await openCatalog(catalogPath);
  try {
    const result = await runFlow(catalog, { projectRoot: PROJECT_ROOT, stateRoot: join(folder, 'state'), repositories: ['demo'], workers: 2, out: join(folder, 'release') });
    if (!result.ok) throw new Error(`the demo flow failed: ${JSON.stringify(result.failures)}`);
  } finally {
    await catalog.close();
  }
  project.provide('demoFixture', { folder, catalogPath, stateRoot: join(folder, 'state'), releaseFolder: join(folder, 'release') });
  return () => rmSync(folder, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    demoFixture: { folder: string; catalogPath: string; stateRoot: string; releaseFolder: string };
  }
}
