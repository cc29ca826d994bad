import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { JobResult, PreparedRepository, RunJob } from '@repocod/runner';
import { LocalExecutor, loadManifest, prepareRepository, runnerPaths } from '@repocod/runner';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistributedWorker } from './distributed-worker.js';
import { JobQueue } from './job-queue.js';
import { JOB_QUEUE } from './queue-names.js';
import { RedisExecutor } from './redis-executor.js';
import type { RedisForRun } from './redis-server-process.js';
import { redisForRun } from './redis-server-process.js';
import type { RedisAddress } from './redis-url.js';
import { parseRedisUrl } from './redis-url.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const SLUGIFY = 'tests/test_util.py::test_slugify_custom_separator';

let redis: RedisForRun;
let address: RedisAddress;
let prepared: PreparedRepository;
let jobs: RunJob[];
/** Two workers' state folders, kept from test to test (no two tests' workers run at once): prepared once. */
const workerStates = [
  mkdtempSync(join(tmpdir(), 'repocod-worker-a-')),
  mkdtempSync(join(tmpdir(), 'repocod-worker-b-')),
];

beforeAll(async () => {
  redis = await redisForRun();
  address = parseRedisUrl(redis.url, 'test');
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  prepared = await prepareRepository(
    entry,
    runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-coordinator-'))),
    { workers: 2 },
  );
  const files = [
    'test_util.py',
    'test_models.py',
    'test_pricing.py',
    'test_orders.py',
    'test_errors.py',
    'test_reports.py',
  ];
  jobs = [
    { repository: 'demo', patches: [], tests: 'all' },
    ...files.slice(1).map((file) => ({ repository: 'demo', patches: [], tests: [`tests/${file}`] })),
    { repository: 'demo', patches: [], tests: [SLUGIFY, 'tests/test_util.py::no_such_test'], repeat: 2 },
    {
      repository: 'demo',
      patches: [
        '--- a/inventory/util.py\n+++ b/inventory/util.py\n@@ -1,1 +1,1 @@\n-this line is not there\n+nor this one\n',
      ],
      tests: [SLUGIFY],
    },
    { repository: 'demo', patches: [], tests: 'all' },
  ];
}, 300_000);

afterAll(async () => {
  await redis?.stop();
});

/** A private namespace on the shared Redis, so tests do not see each other's jobs. */
function namespace(): string {
  return `test-${randomUUID().slice(0, 8)}`;
}

async function startWorker(prefix: string, lines: string[] = [], which = 0): Promise<DistributedWorker> {
  return DistributedWorker.start({
    address,
    prefix,
    concurrency: 1,
    projectRoot: PROJECT_ROOT,
    stateRoot: mkdtempSync(join(tmpdir(), 'repocod-worker-')),
    state: workerStates[which],
    onLog: (line) => lines.push(line),
  });
}

async function collect(
  run: AsyncGenerator<{ readonly index: number; readonly result: JobResult }>,
): Promise<Map<number, JobResult>> {
  const results = new Map<number, JobResult>();
  for await (const { index, result } of run) {
    expect(results.has(index)).toBe(false);
    results.set(index, result);
  }
  return results;
}

/** What a result says, without what differs between two runs of the same job (times, paths, worker). */
function meaning(result: JobResult | undefined): unknown {
  if (result === undefined) return undefined;
  return {
    job: result.job,
    jobHash: result.jobHash,
    // git names its scratch file and the worktree, which differ from one worktree to the next.
    patchError: result.patchError?.replace(/\/\S*repocod-[^\s)]*/g, '<path>') ?? null,
    runs: result.runs.map((run) => ({
      status: run.status,
      exitCode: run.exitCode,
      network: run.network,
      tests: run.results.map((test) => [test.nodeId, test.outcome, test.message === null]),
    })),
  };
}

describe('RedisExecutor with workers on the same Redis', () => {
  it('gives the results the local executor gives for the same jobs', { timeout: 300_000 }, async () => {
    const local = await collect(new LocalExecutor(prepared).run(jobs));
    const prefix = namespace();
    const workers = [await startWorker(prefix), await startWorker(prefix, [], 1)];
    const queue = await JobQueue.connect(address, { prefix });
    try {
      const executor = new RedisExecutor(queue, prepared, { parallelism: 2 });
      const distributed = await collect(executor.run(jobs));
      expect(distributed.size).toBe(jobs.length);
      for (const index of jobs.keys()) expect(meaning(distributed.get(index))).toEqual(meaning(local.get(index)));
      // Real runs: the demo's tests ran on the workers, a patch error stayed a patch error.
      expect(distributed.get(0)?.runs[0]?.results.length).toBeGreaterThan(10);
      expect(distributed.get(6)?.runs.map((run) => run.results.map((test) => test.outcome))).toEqual([
        ['passed', 'missing'],
        ['passed', 'missing'],
      ]);
      expect(distributed.get(7)?.patchError).toMatch(/does not apply/);
      // The last job is the first again: one job on the queue, its result handed to both.
      expect(distributed.get(8)?.jobHash).toBe(distributed.get(0)?.jobHash);
      // Every result taken is taken off the queue.
      expect(await queue.pending()).toBe(0);
    } finally {
      await queue.close();
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });

  it('after a coordinator restart: the results that came meanwhile, then the rest, nothing run twice', {
    timeout: 300_000,
  }, async () => {
    const prefix = namespace();
    const lines: string[] = [];
    const worker = await startWorker(prefix, lines);
    const first = await JobQueue.connect(address, { prefix });
    const stored = new Map<number, JobResult>();
    try {
      // The first coordinator stores two results and dies (its generator is dropped, its connection closed).
      for await (const { index, result } of new RedisExecutor(first, prepared, { parallelism: 1 }).run(jobs)) {
        stored.set(index, result);
        if (stored.size === 2) break;
      }
    } finally {
      await first.close();
    }
    // The worker goes on meanwhile: the coordinator comes back after one more job is done, with others still to run.
    const finished = (): number => lines.filter((line) => line.includes(' done: ')).length;
    const doneAtBreak = finished();
    while (finished() === doneAtBreak) await new Promise((done) => setTimeout(done, 50));
    const second = await JobQueue.connect(address, { prefix });
    try {
      expect(await second.pending()).toBeGreaterThan(0);
      const rest = jobs.map((job, index) => ({ job, index })).filter(({ index }) => !stored.has(index));
      const results = await collect(
        new RedisExecutor(second, prepared, { parallelism: 1 }).run(rest.map(({ job }) => job)),
      );
      expect(results.size).toBe(rest.length);
      for (const [at, { job }] of rest.entries()) expect(results.get(at)?.job).toBe(job);
      // Every distinct job ran once on the worker: none was put on again or run again for the second coordinator.
      const runs = lines.filter((line) => line.includes(') started'));
      expect(runs).toHaveLength(new Set(jobs.map((job) => JSON.stringify(job))).size);
      expect(new Set(runs).size).toBe(runs.length);
      expect(await second.pending()).toBe(0);
    } finally {
      await second.close();
      await worker.close();
    }
  });

  it('ignores a second result for a job it has handed over', { timeout: 300_000 }, async () => {
    const prefix = namespace();
    const worker = await startWorker(prefix);
    const queue = await JobQueue.connect(address, { prefix });
    // Every completion is announced a second time, with another value: a duplicate delivery.
    const events = new QueueEvents(JOB_QUEUE, { connection: { host: address.host, port: address.port }, prefix });
    const client = new Redis({ host: address.host, port: address.port });
    await events.waitUntilReady();
    events.on('completed', ({ jobId }) => {
      void client.xadd(
        `${prefix}:${JOB_QUEUE}:events`,
        '*',
        'event',
        'completed',
        'jobId',
        jobId,
        'returnvalue',
        JSON.stringify({ format: 'repocod-result/1', bogus: true }),
      );
    });
    try {
      const executor = new RedisExecutor(queue, prepared, { parallelism: 1 });
      const some = jobs.slice(0, 4);
      const results = await collect(executor.run(some));
      expect([...results.keys()].sort()).toEqual([0, 1, 2, 3]);
      for (const result of results.values()) expect(result.runs[0]?.results.length).toBeGreaterThan(0);
      expect(executor.duplicatesIgnored).toBeGreaterThanOrEqual(1);
    } finally {
      await events.close();
      client.disconnect();
      await queue.close();
      await worker.close();
    }
  });

  it('rejects a malformed job at once with what is wrong with it, and goes on with the next', {
    timeout: 120_000,
  }, async () => {
    const prefix = namespace();
    const worker = await startWorker(prefix);
    const connection = { host: address.host, port: address.port };
    const raw = new Queue(JOB_QUEUE, { connection, prefix });
    const queue = await JobQueue.connect(address, { prefix });
    try {
      const good = { ...(await import('./job-message.js')).jobMessage(jobs[0] as RunJob, prepared) };
      const { entry, ...withoutEntry } = good;
      const { python: _python, ...entryWithoutPython } = entry;
      await raw.add('demo', { ...good, entry: entryWithoutPython }, { jobId: 'no-python', attempts: 3 });
      await raw.add('demo', { ...withoutEntry, format: 'repocod-job/0', entry }, { jobId: 'old-format', attempts: 3 });
      await raw.add('demo', 'run the tests please', { jobId: 'not-an-object', attempts: 3 });
      const failed = async (id: string): Promise<{ reason: string; attempts: number }> => {
        while ((await raw.getJobState(id)) !== 'failed') await new Promise((done) => setTimeout(done, 100));
        const job = await raw.getJob(id);
        return { reason: job?.failedReason ?? '', attempts: job?.attemptsMade ?? 0 };
      };
      expect(await failed('no-python')).toEqual({
        reason: expect.stringMatching(
          /^rejected by worker .*: job no-python: field entry\.python must be a string, found nothing$/,
        ),
        attempts: 1,
      });
      expect((await failed('old-format')).reason).toMatch(
        new RegExp(
          String.raw`job old-format: field format must be "repocod-job\/2" \(another format was made by another rep` +
            String.raw`ocod version: run the same version on the coordinator and the workers\), found "repocod-job\/0` +
            String.raw`"`,
        ),
      );
      expect((await failed('not-an-object')).reason).toMatch(
        /job not-an-object must be an object, found "run the tests please"/,
      );
      // The worker is still there for real jobs.
      const results = await collect(new RedisExecutor(queue, prepared, { parallelism: 1 }).run(jobs.slice(0, 1)));
      expect(results.get(0)?.runs[0]?.status).toBe('ok');
    } finally {
      await raw.close();
      await queue.close();
      await worker.close();
    }
  });

  it('refuses a result that is not a result, naming the job and the field', { timeout: 60_000 }, async () => {
    const prefix = namespace();
    const impostor = new Worker(
      JOB_QUEUE,
      async () => ({
        format: 'repocod-result/1',
        jobHash: 'x',
        worker: { id: 'w', host: 'h', pid: 1, concurrency: 1 },
        result: { runs: 'none' },
      }),
      { connection: { host: address.host, port: address.port, maxRetriesPerRequest: null }, prefix },
    );
    const queue = await JobQueue.connect(address, { prefix });
    try {
      await expect(
        collect(new RedisExecutor(queue, prepared, { parallelism: 1 }).run(jobs.slice(0, 1))),
      ).rejects.toThrow(/result of job [0-9a-f]{64}: field result\.jobHash must be a string, found nothing/);
    } finally {
      await impostor.close();
      await queue.close();
    }
  });

  it("fails a job a worker cannot run as the coordinator's, with both checkouts named", {
    timeout: 120_000,
  }, async () => {
    const prefix = namespace();
    const worker = await startWorker(prefix);
    const queue = await JobQueue.connect(address, { prefix });
    // A coordinator whose checkout of the demo is at another commit than the worker's.
    const elsewhere: PreparedRepository = {
      ...prepared,
      checkout: { ...prepared.checkout, baseCommit: 'f'.repeat(40) },
    };
    try {
      await expect(
        collect(new RedisExecutor(queue, elsewhere, { parallelism: 1 }).run(jobs.slice(0, 1))),
      ).rejects.toThrow(
        new RegExp(
          String.raw`demo: job [0-9a-f]{12} \(the whole suite\) failed on the workers: demo: this worker's checkout` +
            String.raw` is at [0-9a-f]{12} with environment [0-9a-f]{12}, the coordinator's at ffffffffffff .*the sou` +
            String.raw`rce folders or manifests differ`,
        ),
      );
    } finally {
      await queue.close();
      await worker.close();
    }
  });

  it('says when no worker is connected, and again when one comes', { timeout: 120_000 }, async () => {
    const prefix = namespace();
    const queue = await JobQueue.connect(address, { prefix });
    const notices: string[] = [];
    let worker: DistributedWorker | undefined;
    try {
      const run = collect(
        new RedisExecutor(queue, prepared, {
          parallelism: 1,
          onNotice: (line) => {
            notices.push(line);
            if (worker === undefined) void startWorker(prefix).then((started) => (worker = started));
          },
        }).run(jobs.slice(0, 1)),
      );
      expect((await run).size).toBe(1);
      expect(notices[0]).toBe(
        `no worker is connected to ${address.display} --namespace ${prefix}: the jobs wait on the queue; ` +
          `start \`repocod worker --redis ${address.display} --namespace ${prefix}\` on each machine`,
      );
    } finally {
      await queue.close();
      await worker?.close();
    }
  });
});
