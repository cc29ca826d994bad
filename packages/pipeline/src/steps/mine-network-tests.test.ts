import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { networkBound } from '@repocod/mining';
import { networkIsolation } from '@repocod/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MineSummary } from './mine.js';
import { runMineCommand } from '../commands/mine.js';

// datasets/network-fixture: http_status() is run by a test against a loopback server (works without
// network) and by one against pypi.org (needs the network, which the runner's tests never have).
const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-network-'));
const LOCAL = 'tests/test_status.py::test_status_of_a_local_server';
const REMOTE = 'tests/test_status.py::test_status_of_pypi';
const isolated = networkIsolation().isolated;

let catalog: Catalog;
let summary: MineSummary;

beforeAll(async () => {
  catalog = await openCatalog(join(state, 'catalog.duckdb'));
  summary = await runMineCommand(catalog, {
    projectRoot: PROJECT_ROOT,
    stateRoot: state,
    manifest: join(PROJECT_ROOT, 'datasets/network-fixture/manifest.yaml'),
    repository: 'network-fixture',
    workers: 2,
    mode: 'fast',
  });
}, 300_000);

afterAll(async () => {
  await catalog.close();
  rmSync(state, { recursive: true, force: true });
});

describe.skipIf(!isolated)('a test that needs the network', () => {
  it('fails at the base commit under the runner, and is listed as network-bound with its error', () => {
    const remote = summary.baseline.tests.find((test) => test.nodeId === REMOTE);
    expect(remote).toMatchObject({ status: 'not-passing', outcomes: ['failed', 'failed', 'failed'] });
    expect(remote?.reason).toMatch(
      /failed in all 3 runs \(.*(Network is unreachable|name resolution|Name or service not known)/,
    );
    expect(networkBound(summary.baseline.tests).map((test) => test.nodeId)).toEqual([REMOTE]);
    expect(summary.baseline.passing.has(LOCAL)).toBe(true);
  });

  it('never enters a FAIL_TO_PASS: the function keeps only the test that runs on loopback', () => {
    const [fn] = summary.functions;
    expect(summary.functions).toHaveLength(1);
    expect(fn).toMatchObject({ qualname: 'http_status', status: 'tests', tests: [LOCAL] });
  });
});
