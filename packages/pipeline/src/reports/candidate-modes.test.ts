import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMiningOutcomes } from '../candidates/mining-outcomes.js';
import { candidateModeCounts } from './candidate-mode-counts.js';
import { candidatesUnderMode } from '../candidates/candidate-selection.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { repositoryTestNames } from '../candidates/repository-test-names.js';
import { runTasksCommand } from '../commands/tasks.js';
import { DEMO_ROOT } from '../testing/test-support.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-candidate-modes-'));
let catalog: Catalog;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
}, 120_000);

afterAll(async () => {
  await catalog.close();
});

/** The demo's test modules as one text: what a name must appear in, called, to be "called". */
function demoTestText(): string {
  const folder = join(DEMO_ROOT, 'tests');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.py'))
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('\n');
}

describe('candidate modes on the mined demo', () => {
  it('count the candidates and tasks of each reading from one mining of the docstring rule', async () => {
    const candidates = await catalog.functions('demo', { candidatesOnly: true });
    const counts = candidateModeCounts(
      candidates,
      await repositoryTestNames(DEMO_ROOT),
      await catalogMiningOutcomes(catalog, 'demo'),
    );
    // Every candidate was mined; 52 have relevant tests (the demo's tasks).
    expect(counts.docstring).toEqual({ candidates: candidates.length, mined: candidates.length, withTests: 52 });
    expect(counts.called.candidates).toBeGreaterThan(0);
    expect(counts.called.candidates).toBeLessThan(candidates.length);
    expect(counts['called-code2'].candidates).toBeLessThanOrEqual(counts.called.candidates);
    expect(counts['docstring-code2'].withTests).toBeLessThanOrEqual(52);
  });

  it('make tasks of the mined functions a mode keeps, and only of those', async () => {
    const root = join(state, 'repos', 'demo');
    const summary = await runTasksCommand(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot: state,
      repository: 'demo',
      workers: 2,
      candidates: 'called',
    });
    const called = await candidatesUnderMode(await catalog.functions('demo', { candidatesOnly: true }), 'called', root);
    const counts = candidateModeCounts(
      called,
      await repositoryTestNames(root),
      await catalogMiningOutcomes(catalog, 'demo'),
    );
    expect(summary.tasks.length).toBe(counts.called.withTests);
    expect(summary.tasks.length).toBeLessThan(52);
    const tests = demoTestText();
    for (const task of summary.tasks) {
      const parts = task.qualname.split('.');
      const name = parts.at(-1) === '__init__' ? parts.at(-2) : parts.at(-1);
      // Called by name, or (a property) read as an attribute.
      expect(tests, task.qualname).toMatch(new RegExp(`\\b${name}\\b`));
    }
  }, 600_000);

  it('leave a repository without mined functions without tasks when asked, and stop on it otherwise', async () => {
    const options = { projectRoot: PROJECT_ROOT, stateRoot: state, repository: 'demo', workers: 2, miningKey: 'none' };
    await expect(runTasksCommand(catalog, options)).rejects.toThrow(/no mined function with relevant tests/);
    const summary = await runTasksCommand(catalog, { ...options, allowNoTasks: true });
    expect(summary.tasks).toEqual([]);
    expect(await catalog.tasks('demo')).toEqual([]);
  }, 120_000);
});
