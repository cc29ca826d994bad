import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MineSummary } from './mine.js';
import { runMineCommand } from '../commands/mine.js';
import { miningKeyOf } from './mining-key.js';
import { prepareStep } from './prepare.js';
import { selectStep } from './select.js';
import { runTasksCommand } from '../commands/tasks.js';
import type { ValidateSummary } from './validate.js';
import { runValidateCommand } from '../commands/validate.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-baseline-runs-'));
// The demo's entry with baseline_runs: 1, as a repository whose suite takes hours would have it.
const manifest = join(state, 'manifest.yaml');
writeFileSync(
  manifest,
  `${readFileSync(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml'), 'utf8').trimEnd()}\n    baseline_runs: 1\n`,
);
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, repository: 'demo', workers: 2, manifest };
const CHOSEN = ['slugify', 'PricedItem.price_for'];
let catalog: Catalog;
let mined: MineSummary;
let validated: ValidateSummary;

beforeAll(async () => {
  catalog = await openCatalog(join(state, 'catalog.duckdb'));
  mined = await runMineCommand(catalog, { ...options, mode: 'fast', only: CHOSEN });
  await runTasksCommand(catalog, options);
  const selection = await selectStep(catalog, REPOCOD_LITE_SPEC);
  validated = await runValidateCommand(catalog, { ...options, selectionId: selection.selectionId });
}, 600_000);

afterAll(async () => {
  await catalog.close();
});

describe("a manifest's baseline_runs", () => {
  it('runs the baseline that many times, under a mining key of its own', async () => {
    expect(mined.baseline.tests.length).toBeGreaterThan(150);
    expect(mined.baseline.tests.every((test) => test.outcomes.length === 1)).toBe(true);
    const prepared = await prepareStep('demo', options);
    const asWritten = { ...prepared, entry: { ...prepared.entry, baselineRuns: undefined } };
    // The command's --repeat 3 gives way to the manifest's 1: the same key as --repeat 1 without it.
    expect(mined.miningKey).toBe(miningKeyOf(prepared, 3));
    expect(mined.miningKey).toBe(miningKeyOf(asWritten, 1));
    expect(mined.miningKey).not.toBe(miningKeyOf(asWritten, 3));
    expect(mined.functions.map((fn) => fn.status)).toEqual(['tests', 'tests']);
  });

  it('makes validation run the gold state k times itself: one baseline run is not k', () => {
    // The command gave no --repeat and the demo's manifest no validate_runs: k is 3.
    expect(validated.repeat).toBeUndefined();
    expect(validated.repositories[0]?.repeat).toBe(3);
    expect(validated.validations).toHaveLength(2);
    for (const verdict of validated.validations) {
      expect(verdict.status, verdict.instanceId).toBe('passed');
      expect(verdict.goldFrom, verdict.instanceId).toBe('runs');
    }
  });
});
