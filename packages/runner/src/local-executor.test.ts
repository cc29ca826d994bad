import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, RunJob } from './run-job.js';
import { LocalExecutor } from './local-executor.js';
import type { ExecutorEvent } from './local-executor.js';
import { loadManifest } from './manifest.js';
import type { PreparedRepository } from './prepare-repository.js';
import { prepareRepository, runnerPaths } from './prepare-repository.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
let prepared: PreparedRepository;

beforeAll(async () => {
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  prepared = await prepareRepository(entry, runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-state-'))), {
    workers: 2,
  });
}, 300_000);

async function collect(
  executor: LocalExecutor,
  jobs: readonly RunJob[],
  events: ExecutorEvent[] = [],
): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for await (const { index, result } of executor.run(jobs, (event) => events.push(event))) results[index] = result;
  return results;
}

/** Outcome of every test over all jobs, by node id. */
function outcomes(results: readonly JobResult[]): Record<string, string> {
  const byId: Record<string, string> = {};
  for (const result of results)
    for (const run of result.runs) for (const test of run.results) byId[test.nodeId] = test.outcome;
  return byId;
}

describe('LocalExecutor on the demo', () => {
  it('gives in parallel exactly the results it gives one job at a time', { timeout: 300_000 }, async () => {
    const whole = await collect(new LocalExecutor(prepared), [{ repository: 'demo', patches: [], tests: 'all' }]);
    const ids = whole[0]?.runs[0]?.results.map((test) => test.nodeId) ?? [];
    expect(ids.length).toBeGreaterThanOrEqual(150);
    const byFile = new Map<string, string[]>();
    for (const id of ids) byFile.set(id.split('::')[0] ?? id, [...(byFile.get(id.split('::')[0] ?? id) ?? []), id]);
    const jobs: RunJob[] = [...byFile.values()].map((tests) => ({ repository: 'demo', patches: [], tests }));

    const serial = await collect(new LocalExecutor({ ...prepared, worktrees: prepared.worktrees.slice(0, 1) }), jobs);
    const events: ExecutorEvent[] = [];
    const parallel = await collect(new LocalExecutor(prepared), jobs, events);
    expect(outcomes(parallel)).toEqual(outcomes(serial));
    expect(outcomes(parallel)).toEqual(outcomes(whole));
    expect(new Set(parallel.map((result) => result.worker))).toEqual(new Set([0, 1]));
    expect(
      events.filter((event) => event.kind === 'job-done').map((event) => (event.kind === 'job-done' ? event.done : 0)),
    ).toEqual(jobs.map((_, index) => index + 1));
    expect(parallel.map((result) => result.jobHash)).toEqual(serial.map((result) => result.jobHash));
  });

  it('reports a patch that does not apply as that job error and runs the others', { timeout: 120_000 }, async () => {
    const bad =
      '--- a/inventory/util.py\n+++ b/inventory/util.py\n@@ -1,1 +1,1 @@\n-this line is not there\n+nor this one\n';
    const results = await collect(new LocalExecutor(prepared), [
      { repository: 'demo', patches: [bad], tests: ['tests/test_util.py::test_slugify_custom_separator'] },
      { repository: 'demo', patches: [], tests: ['tests/test_util.py::test_slugify_custom_separator'] },
    ]);
    expect(results[0]?.patchError).toMatch(/patch 1 of 1 does not apply/);
    expect(results[0]?.runs).toEqual([]);
    expect(results[1]?.runs[0]?.results[0]?.outcome).toBe('passed');
  });

  it('kills a hanging job at its timeout and the same worker goes on with the next job', {
    timeout: 120_000,
  }, async () => {
    const hang = [
      'diff --git a/tests/test_hang.py b/tests/test_hang.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/tests/test_hang.py',
      '@@ -0,0 +1,4 @@',
      '+import time',
      '+',
      '+def test_hangs():',
      '+    time.sleep(600)',
      '',
    ].join('\n');
    const single = new LocalExecutor({ ...prepared, worktrees: prepared.worktrees.slice(0, 1) });
    const started = performance.now();
    const results = await collect(single, [
      { repository: 'demo', patches: [hang], tests: ['tests/test_hang.py::test_hangs'], timeoutSeconds: 3 },
      { repository: 'demo', patches: [], tests: ['tests/test_util.py::test_slugify_custom_separator'] },
    ]);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(results[0]?.runs[0]?.status).toBe('timeout');
    expect(results[1]?.worker).toBe(results[0]?.worker);
    expect(results[1]?.runs[0]?.results.map((test) => test.outcome)).toEqual(['passed']);
  });
});
