import { resolve } from 'node:path';
/**
 * `pnpm bench:distributed`: the demo's validation (its selection's 50 tasks, three checks each, k = 3:
 * 150 pytest jobs) run in one go from the same catalog, every job run afresh:
 *   - through Redis on 1 `repocod worker` process: the named baseline;
 *   - through Redis on 2 worker processes (separate processes on this machine, --concurrency 1 each);
 *   - on this machine's local pool (2 worktrees, no Redis), for reference.
 * Prints the wall time, the throughput (jobs/s) and the speed-up over the baseline of each, and whether
 * all of them decided every task alike. Workers prepare their environment before the clock starts.
 * A private redis-server is started on a free loopback port (or REPOCOD_TEST_REDIS_URL is used).
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobQueue, parseRedisUrl, redisForRun, RedisExecutor } from '@repocod/distributed';
import type { StoredValidation } from '@repocod/pipeline';
import { openCatalog, runFlow, runValidateCommand } from '@repocod/pipeline';
const PROJECT_ROOT = resolve(new URL('../..', import.meta.url).pathname);
import { startWorkerProcess } from '@repocod/testkit';

interface Measured {
  readonly label: string;
  readonly seconds: number;
  readonly jobs: number;
  readonly verdicts: string;
}

const folder = mkdtempSync(join(tmpdir(), 'repocod-bench-distributed-'));
const stateRoot = join(folder, 'state');
const selected = join(folder, 'selected.duckdb');
const redis = await redisForRun();
try {
  console.log(`redis ${redis.url}; ${availableParallelism()} cores; state in ${folder}`);
  const started = performance.now();
  const catalog = await openCatalog(selected);
  try {
    const flow = await runFlow(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot,
      repositories: ['demo'],
      workers: 2,
      out: join(folder, 'release'),
      stages: ['prepare', 'extract', 'mine', 'tasks', 'select'],
    });
    if (!flow.ok) throw new Error(`the demo flow failed: ${JSON.stringify(flow.failures)}`);
  } finally {
    await catalog.close();
  }
  console.log(`the demo's selection made in ${((performance.now() - started) / 1000).toFixed(1)} s (not measured)\n`);

  const runs: Measured[] = [];
  for (const setup of [
    { label: '1 worker process (baseline)', workers: 1 },
    { label: '2 worker processes', workers: 2 },
    { label: 'local pool, 2 worktrees', workers: 0 },
  ]) {
    runs.push(await measure(setup.label, setup.workers));
    const run = runs.at(-1) as Measured;
    console.log(`  ${run.label.padEnd(30)} ${run.seconds.toFixed(1).padStart(7)} s   ${run.jobs} jobs`);
  }

  const baseline = runs[0] as Measured;
  console.log(`\n${'setup'.padEnd(30)} ${'wall'.padStart(9)} ${'jobs/s'.padStart(8)} ${'speed-up'.padStart(9)}`);
  for (const run of runs) {
    console.log(
      `${run.label.padEnd(30)} ${`${run.seconds.toFixed(1)} s`.padStart(9)} ` +
        `${(run.jobs / run.seconds).toFixed(2).padStart(8)} ` +
        `${`${(baseline.seconds / run.seconds).toFixed(2)}x`.padStart(9)}`,
    );
  }
  const alike = runs.every((run) => run.verdicts === baseline.verdicts);
  console.log(`\nverdicts alike in all runs: ${alike ? 'yes' : 'NO'} (${summariseVerdicts(baseline.verdicts)})`);
  if (!alike) process.exitCode = 1;
} finally {
  await redis.stop();
  rmSync(folder, { recursive: true, force: true });
}

/**
 * One validation of the selection from a fresh copy of the catalog, on `workers` worker processes (0: the local pool).
 */
async function measure(label: string, workers: number): Promise<Measured> {
  const copy = join(folder, `${randomUUID()}.duckdb`);
  copyFileSync(selected, copy);
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const processes = Array.from({ length: workers }, () =>
    startWorkerProcess({ redisUrl: redis.url, namespace, prepare: ['demo'] }),
  );
  await Promise.all(processes.map((worker) => worker.ready));
  const queue =
    workers === 0 ? undefined : await JobQueue.connect(parseRedisUrl(redis.url, 'bench'), { prefix: namespace });
  const catalog = await openCatalog(copy);
  try {
    const started = performance.now();
    const summary = await runValidateCommand(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot,
      workers: 2,
      fresh: true,
      executor: queue === undefined ? undefined : (prepared) => new RedisExecutor(queue, prepared),
    });
    const seconds = (performance.now() - started) / 1000;
    const jobs = summary.repositories.reduce((sum, repository) => sum + repository.jobsRun, 0);
    return { label, seconds, jobs, verdicts: verdictsOf(summary.validations) };
  } finally {
    await catalog.close();
    await queue?.close();
    for (const worker of processes) worker.child.kill('SIGTERM');
    await Promise.all(processes.map((worker) => worker.exited));
  }
}

function verdictsOf(validations: readonly StoredValidation[]): string {
  return JSON.stringify(validations.map((row) => [row.instanceId, row.status, row.failToPass, row.flakyTests]));
}

function summariseVerdicts(verdicts: string): string {
  const rows = JSON.parse(verdicts) as [string, string][];
  return `${rows.length} tasks, ${rows.filter(([, status]) => status === 'passed').length} passed`;
}
