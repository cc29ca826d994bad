import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { BuildCost } from '@repocod/pipeline';
import { openCatalog, runFlow } from '@repocod/pipeline';

/**
 * Vitest global setup: the whole flow, run once on the bundled demo into a folder of its own, so that
 * every screen's test reads real catalog data (tasks, levels, validations with failures) without each
 * paying for mining and validation. Tests get the folder through `inject('demoFixture')` and open a
 * copy of its catalog (demo-fixture.ts).
 */
const PROJECT_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => void> {
  // REPOCOD_TUI_FIXTURE=DIR keeps the fixture in DIR and reuses it on the next run (for working on the
  // screens: the flow takes a minute or two); without it each run makes its own and removes it.
  const kept = process.env.REPOCOD_TUI_FIXTURE;
  const folder = kept !== undefined && kept !== '' ? kept : mkdtempSync(join(tmpdir(), 'repocod-tui-fixture-'));
  const catalogPath = join(folder, 'catalog.duckdb');
  // What the cold flow cost (null when a kept fixture was reused, which ran nothing).
  let cost: BuildCost | null = null;
  const provide = (): void =>
    project.provide('demoFixture', {
      folder,
      catalogPath,
      stateRoot: join(folder, 'state'),
      releaseFolder: join(folder, 'release'),
      cost,
    });
  if (kept !== undefined && kept !== '' && existsSync(join(folder, 'release', 'README.md'))) {
    provide();
    return () => undefined;
  }
  const catalog = await openCatalog(catalogPath);
  try {
    const result = await runFlow(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot: join(folder, 'state'),
      repositories: ['demo'],
      workers: 2,
      out: join(folder, 'release'),
    });
    if (!result.ok) throw new Error(`the demo flow failed: ${JSON.stringify(result.failures)}`);
    cost = result.cost;
  } finally {
    await catalog.close();
  }
  provide();
  return () => {
    if (kept === undefined || kept === '') rmSync(folder, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    demoFixture: {
      folder: string;
      catalogPath: string;
      stateRoot: string;
      releaseFolder: string;
      cost: BuildCost | null;
    };
  }
}
