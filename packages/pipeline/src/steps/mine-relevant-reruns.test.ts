import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MineCommandOptions } from '../commands/mine.js';
import { runMineCommand } from '../commands/mine.js';
import { DEFAULT_EXTRACTION_CONFIG } from './extractor-fingerprint.js';
import type { MineSummary } from './mine.js';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';
import { selectStep } from './select.js';
import type { ValidateSummary } from './validate.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const EDGE_MANIFEST = join(PROJECT_ROOT, 'datasets/mining-edge-cases/manifest.yaml');
const state = mkdtempSync(join(tmpdir(), 'repocod-relevant-reruns-'));
// The edge-case entry with `baseline_reruns: relevant`: its runs after the traced one are of the FAIL_TO_PASS tests.
const relevantManifest = join(state, 'manifest.yaml');
writeFileSync(relevantManifest, `${readFileSync(EDGE_MANIFEST, 'utf8').trimEnd()}\n    baseline_reruns: relevant\n`);
const options: MineCommandOptions = {
  projectRoot: PROJECT_ROOT,
  stateRoot: state,
  repository: 'mining-edge-cases',
  workers: 2,
  extraction: { ...DEFAULT_EXTRACTION_CONFIG, candidateFilter: { minDocstringLinesExclusive: 0, includeNested: true } },
  mode: 'fast',
};
const FLAKY = 'tests/test_core.py::test_flaky';
const catalogs: Catalog[] = [];
let suite: MineSummary;
let relevant: MineSummary;
let again: MineSummary;
// Two functions of the demo, whose FAIL_TO_PASS are a few of its 316 tests, mined, made tasks and validated.
const DEMO_CHOSEN = ['slugify', 'PricedItem.price_for'];
const demoManifest = join(state, 'demo-manifest.yaml');
const demoEntry = readFileSync(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml'), 'utf8').trimEnd();
writeFileSync(demoManifest, `${demoEntry}\n    baseline_reruns: relevant\n`);
const demoOptions = {
  projectRoot: PROJECT_ROOT,
  stateRoot: state,
  repository: 'demo',
  workers: 2,
  manifest: demoManifest,
};
let demo: MineSummary;
let validated: ValidateSummary;

/** Mines the edge cases into a catalog of their own, test_flaky counting its runs in a file of its own. */
async function mine(name: string, manifest: string): Promise<{ catalog: Catalog; summary: MineSummary }> {
  // test_flaky fails on every other run, counted in this file (see its docstring).
  process.env.EDGE_FLAKY_FILE = join(state, `${name}-flaky-runs`);
  const catalog = await openCatalog(join(state, `${name}.duckdb`));
  catalogs.push(catalog);
  return { catalog, summary: await runMineCommand(catalog, { ...options, manifest }) };
}

beforeAll(async () => {
  suite = (await mine('suite', EDGE_MANIFEST)).summary;
  const second = await mine('relevant', relevantManifest);
  relevant = second.summary;
  again = await runMineCommand(second.catalog, { ...options, manifest: relevantManifest });
  const demoCatalog = await openCatalog(join(state, 'demo.duckdb'));
  catalogs.push(demoCatalog);
  demo = await runMineCommand(demoCatalog, { ...demoOptions, mode: 'fast', only: DEMO_CHOSEN });
  await runTasksCommand(demoCatalog, demoOptions);
  const selection = await selectStep(demoCatalog, REPOCOD_LITE_SPEC);
  validated = await runValidateCommand(demoCatalog, { ...demoOptions, selectionId: selection.selectionId });
}, 600_000);

afterAll(async () => {
  for (const catalog of catalogs) await catalog.close();
  delete process.env.EDGE_FLAKY_FILE;
});

describe('baseline_reruns: relevant', () => {
  it('finds the FAIL_TO_PASS of every function that k runs of the whole suite find', () => {
    const answers = (summary: MineSummary) =>
      summary.functions.map((fn) => ({ qualname: fn.qualname, status: fn.status, tests: fn.tests }));
    expect(relevant.functions.length).toBeGreaterThan(15);
    expect(answers(relevant)).toEqual(answers(suite));
    // The one function run only by the flaky test has none either way; here the reruns say why.
    const flakyTarget = relevant.functions.find((fn) => fn.qualname === 'flaky_target');
    expect(flakyTarget).toMatchObject({ status: 'no-tests', tests: [] });
    expect(flakyTarget?.reason).toMatch(
      /^its 1 relevant test\(s\) did not pass in every baseline run \(.*test_flaky: /,
    );
    expect(relevant.miningKey).not.toBe(suite.miningKey);
  });

  it('runs the whole suite once, then k - 1 = 2 runs of only the tests that ended in a FAIL_TO_PASS', () => {
    const rerun = new Set([...relevant.functions.flatMap((fn) => fn.tests), FLAKY]);
    const tests = relevant.baseline.tests;
    for (const test of tests) expect(test.outcomes.length, test.nodeId).toBe(rerun.has(test.nodeId) ? 3 : 1);
    // Each test of the edge cases is some function's FAIL_TO_PASS (or the flaky one), so each is rerun here.
    expect(tests.length).toBe(rerun.size);
    expect(tests.find((test) => test.nodeId === FLAKY)).toMatchObject({ status: 'flaky' });
    const phase = (summary: MineSummary, name: string) => summary.phases.find((stats) => stats.phase === name);
    expect(phase(relevant, 'baseline')?.testExecutions).toBe(tests.length);
    expect(phase(relevant, 'reruns')?.testExecutions).toBe(2 * rerun.size);
    expect(phase(suite, 'baseline')?.testExecutions).toBe(3 * suite.baseline.tests.length);
    expect(phase(suite, 'reruns')).toBeUndefined();
  });

  it('runs nothing again once every FAIL_TO_PASS test has its k runs', () => {
    expect(again.phases).toEqual([]);
    expect(again.functions).toEqual(relevant.functions);
    expect(again.baseline.tests).toEqual(relevant.baseline.tests);
  });
});

describe('baseline_reruns: relevant on two functions of the demo', () => {
  it('reruns their FAIL_TO_PASS tests alone, and leaves every other test of the suite at its one run', () => {
    const rerun = new Set(demo.functions.flatMap((fn) => fn.tests));
    expect(demo.functions.map((fn) => fn.status)).toEqual(['tests', 'tests']);
    expect(rerun.size).toBeGreaterThan(0);
    const tests = demo.baseline.tests;
    expect(tests.length).toBeGreaterThan(10 * rerun.size);
    for (const test of tests) expect(test.outcomes.length, test.nodeId).toBe(rerun.has(test.nodeId) ? 3 : 1);
  });

  it("answers validation's gold check from the baseline's k runs: no gold job beyond the fit run", () => {
    expect(validated.validations).toHaveLength(2);
    for (const verdict of validated.validations) {
      expect(verdict.status, verdict.instanceId).toBe('passed');
      expect(verdict.goldFrom, verdict.instanceId).toBe('baseline');
    }
  });
});
