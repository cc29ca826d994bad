import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisForRun } from '@repocod/distributed';
import { JobQueue, parseRedisUrl, redisForRun, RedisExecutor } from '@repocod/distributed';
import type { Catalog, StoredValidation } from '@repocod/pipeline';
import { REPOCOD_LITE_SPEC, selectStep, runValidateCommand } from '@repocod/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-root.js';
import { openDemoCatalog } from './testing/demo-fixture.js';
import type { WorkerProcess } from '@repocod/testkit';
import { startWorkerProcess } from '@repocod/testkit';

/**
 * Ten of the demo's tasks validated twice from the same catalog: on this machine's pool, and through
 * Redis by two `repocod worker` processes. Every verdict, check and FAIL_TO_PASS list must be the same.
 * Both use repeat 2 and --fresh, so nothing is answered by the verdicts or runs the fixture stored.
 * The ten hold every context level, a task that fails validation (ensure_non_negative) and tasks with
 * tests that pass without the body; validating all 52 would take this file from one to four minutes.
 */
const TEN = [
  'slugify',
  'quote',
  'Record.__eq__',
  'PricedItem.price_for',
  'Bin.take',
  'format_table',
  'ensure_non_negative',
  'percent_off',
  'round_money',
  'compute_tax',
];
let redis: RedisForRun;
let workers: WorkerProcess[];
const namespace = `test-${randomUUID().slice(0, 8)}`;
const coordinatorState = mkdtempSync(join(tmpdir(), 'repocod-coordinator-'));

beforeAll(async () => {
  redis = await redisForRun();
  workers = [0, 1].map(() => startWorkerProcess({ redisUrl: redis.url, namespace, prepare: ['demo'] }));
  await Promise.all(workers.map((worker) => worker.ready));
}, 300_000);

afterAll(async () => {
  for (const worker of workers ?? []) worker.child.kill('SIGKILL');
  await redis?.stop();
});

async function validate(catalog: Catalog, queue?: JobQueue): Promise<readonly StoredValidation[]> {
  const filter = `repository = 'demo' AND qualname IN (${TEN.map((name) => `'${name}'`).join(', ')})`;
  const { selectionId } = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter });
  const summary = await runValidateCommand(catalog, {
    selectionId,
    projectRoot: PROJECT_ROOT,
    stateRoot: coordinatorState,
    workers: 2,
    repeat: 2,
    fresh: true,
    executor: queue === undefined ? undefined : (prepared) => new RedisExecutor(queue, prepared),
  });
  return summary.validations;
}

/**
 * A verdict without when and how long, and without the pytest log tails its checks keep for people
 * (object addresses and scratch paths differ from run to run): what it decided and from which runs.
 */
function decided(row: StoredValidation): unknown {
  // The fit within the limit is decided alike; the seconds it measured differ from run to run.
  const checks = row.checks.map(({ log: _log, fit, ...check }) => ({
    ...check,
    detail: check.detail.replace(/: \d+\.\d s \(/, ': … s ('),
    ...(fit === undefined ? {} : { fit: { ...fit, seconds: fit.seconds > 0 } }),
  }));
  return {
    instanceId: row.instanceId,
    status: row.status,
    checks,
    failToPass: row.failToPass,
    flakyTests: row.flakyTests,
    droppedTests: row.droppedTests,
    passingWithoutBody: row.passingWithoutBody,
    withoutBodyComplete: row.withoutBodyComplete,
    goldFrom: row.goldFrom,
    environmentKey: row.environmentKey,
    packagesHash: row.packagesHash,
    runIds: row.runIds,
  };
}

describe('validation through Redis workers', () => {
  it('decides every task as the local pool does', { timeout: 600_000 }, async () => {
    const localCatalog = await openDemoCatalog();
    const distributedCatalog = await openDemoCatalog();
    const queue = await JobQueue.connect(parseRedisUrl(redis.url, 'test'), { prefix: namespace });
    try {
      const local = await validate(localCatalog);
      const distributed = await validate(distributedCatalog, queue);
      expect(local).toHaveLength(TEN.length);
      // REPOCOD's rule: every task but ensure_non_negative has a test that fails without the body.
      expect(local.filter((row) => row.status !== 'passed').map((row) => row.instanceId)).toEqual([
        'demo-inventory.util.ensure_non_negative',
      ]);
      expect(distributed.map(decided)).toEqual(local.map(decided));
      // Both workers took part, and the queue is empty afterwards.
      for (const worker of workers) expect(worker.log()).toMatch(/demo: job [0-9a-f]{12} done: /);
      expect(await queue.pending()).toBe(0);
    } finally {
      await queue.close();
      await localCatalog.close();
      await distributedCatalog.close();
    }
  });
});
