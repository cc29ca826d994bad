import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisForRun } from '@repocod/distributed';
import { JobQueue, parseRedisUrl, redisForRun, RedisExecutor } from '@repocod/distributed';
import type { JobResult, PreparedRepository, RunJob } from '@repocod/runner';
import { jobHash, loadManifest, prepareRepository, runnerPaths } from '@repocod/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, DEMO_ROOT } from './testing/test-support.js';
import type { WorkerProcess } from '@repocod/testkit';
import { startWorkerProcess } from '@repocod/testkit';

/** A test of its own that sleeps: the job a worker is killed in the middle of. */
const SLOW_TEST = `diff --git a/tests/test_slow.py b/tests/test_slow.py
new file mode 100644
--- /dev/null
+++ b/tests/test_slow.py
@@ -0,0 +1,5 @@
+import time
+
+
+def test_slow():
+    time.sleep(6)
`;

let redis: RedisForRun;
let prepared: PreparedRepository;

beforeAll(async () => {
  redis = await redisForRun();
  const entry = loadManifest(join(DEMO_ROOT, 'manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  prepared = await prepareRepository(
    entry,
    runnerPaths(join(DEMO_ROOT, '../..'), mkdtempSync(join(tmpdir(), 'repocod-coordinator-'))),
    { workers: 1 },
  );
}, 300_000);

afterAll(async () => {
  await redis?.stop();
});

/** `repocod worker` as a person starts it on a machine, with a short lock so a death is noticed in seconds. */
function startWorker(namespace: string): WorkerProcess {
  return startWorkerProcess({ redisUrl: redis.url, namespace, lockSeconds: 2, prepare: ['demo'] });
}

async function until(condition: () => boolean, what: string, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('repocod worker', () => {
  it('killed in the middle of a job: the job runs again on the other worker and nothing is lost; SIGTERM finishes ' +
    'and ' +
    'stops', {
    timeout: 300_000,
  }, async () => {
    const namespace = `test-${randomUUID().slice(0, 8)}`;
    const workers = [startWorker(namespace), startWorker(namespace)];
    await Promise.all(workers.map((worker) => worker.ready));
    const slow: RunJob = { repository: 'demo', patches: [SLOW_TEST], tests: ['tests/test_slow.py::test_slow'] };
    const fast: RunJob[] = [
      'test_slugify_custom_separator',
      'test_round_money_default_places_is_cents',
      'test_normalize_sku_and_clamp_helpers',
      'test_chunked_rejects_size_zero',
    ].map((name) => ({ repository: 'demo', patches: [], tests: [`tests/test_util.py::${name}`] }));
    const slowStarted = `job ${jobHash(slow, prepared).slice(0, 12)} (1 test) started`;

    const queue = await JobQueue.connect(parseRedisUrl(redis.url, 'test'), { prefix: namespace });
    try {
      const results = new Map<number, JobResult>();
      const run = (async () => {
        for await (const { index, result } of new RedisExecutor(queue, prepared).run([slow, ...fast]))
          results.set(index, result);
      })();
      await until(() => workers.some((worker) => worker.log().includes(slowStarted)), 'the slow job to start');
      const victim = workers.find((worker) => worker.log().includes(slowStarted)) as WorkerProcess;
      const survivor = workers.find((worker) => worker !== victim) as WorkerProcess;
      victim.child.kill('SIGKILL');
      expect((await victim.exited).signal).toBe('SIGKILL');
      await run;

      // Every job came back once, the slow one run to the end by the survivor.
      expect([...results.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
      expect(results.get(0)?.runs[0]?.results.map((test) => [test.nodeId, test.outcome])).toEqual([
        ['tests/test_slow.py::test_slow', 'passed'],
      ]);
      for (const index of [1, 2, 3, 4]) expect(results.get(index)?.runs[0]?.status).toBe('ok');
      expect(survivor.log()).toContain(slowStarted);
      expect(survivor.log()).toMatch(new RegExp(`job ${jobHash(slow, prepared).slice(0, 12)} done: 1 passed`));
      expect(victim.log()).not.toMatch(new RegExp(`job ${jobHash(slow, prepared).slice(0, 12)} done`));
      expect(await queue.pending()).toBe(0);

      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toEqual({ code: 0, signal: null });
      expect(survivor.log()).toContain('SIGTERM: finishing the running jobs, then stopping');
      // Gone from the registry at once (the killed one lingers until its heartbeat lapses): a coordinator no longer
      // counts it.
      const survivorId = /worker (\S+) takes jobs/.exec(survivor.log())?.[1];
      expect(survivorId).toBeDefined();
      expect((await queue.workers()).map((worker) => worker.id)).not.toContain(survivorId);
    } finally {
      await queue.close();
      for (const worker of workers) worker.child.kill('SIGKILL');
    }
  });

  it('serves `repocod run --executor`: the same outcomes as the run on this machine', {
    timeout: 300_000,
  }, async () => {
    const namespace = `test-${randomUUID().slice(0, 8)}`;
    const worker = startWorker(namespace);
    const state = process.env.REPOCOD_STATE;
    process.env.REPOCOD_STATE = mkdtempSync(join(tmpdir(), 'repocod-coordinator-'));
    try {
      await worker.ready;
      const folder = mkdtempSync(join(tmpdir(), 'repocod-run-'));
      const local = bufferIO();
      const localCode = await main(['run', 'demo', '--all', '--db', join(folder, 'local.duckdb')], local);
      const remote = bufferIO();
      const remoteCode = await main(
        [
          'run',
          'demo',
          '--all',
          '--db',
          join(folder, 'remote.duckdb'),
          '--executor',
          redis.url,
          '--namespace',
          namespace,
        ],
        remote,
      );
      expect(remoteCode).toBe(localCode);
      const testsLine = (output: string): string | undefined =>
        output.split('\n').find((line) => line.startsWith('  tests '));
      expect(testsLine(local.stdout())).toMatch(/^ {2}tests {6}31\d: \d+ passed/);
      expect(testsLine(remote.stdout())).toBe(testsLine(local.stdout()));
      expect(remote.stderr()).toMatch(new RegExp(`executor ${redis.url}: 1 worker\\(s\\), 1 job slot\\(s\\)`));
      expect(worker.log()).toMatch(/demo: job [0-9a-f]{12} \(the whole suite\) started/);
    } finally {
      if (state === undefined) delete process.env.REPOCOD_STATE;
      else process.env.REPOCOD_STATE = state;
      worker.child.kill('SIGKILL');
    }
  });

  it('refuses what it cannot work with, saying what to give', async () => {
    const noRedis = bufferIO();
    expect(await main(['worker'], noRedis)).toBe(2);
    expect(noRedis.stderr()).toContain('repocod worker needs --redis redis://HOST:PORT');
    const unreachable = bufferIO();
    expect(await main(['worker', '--redis', 'redis://127.0.0.1:1'], unreachable)).toBe(1);
    expect(unreachable.stderr()).toContain(
      'cannot reach Redis at redis://127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)',
    );
    const typo = bufferIO();
    expect(await main(['worker', '--redis', redis.url, '--source', 'dmeo=/tmp'], typo)).toBe(2);
    expect(typo.stderr()).toMatch(/--source dmeo=\/tmp: no repository named "dmeo" in .*\(known: .*demo\)/);
    const badExecutor = bufferIO();
    expect(await main(['validate', '--executor', 'http://queue:6379'], badExecutor)).toBe(2);
    expect(badExecutor.stderr()).toContain('--executor "http://queue:6379": the scheme must be redis:// or rediss://');
  });
});
