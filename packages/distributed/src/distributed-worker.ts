import { hostname } from 'node:os';
import { RepocodError } from '@repocod/core';
import type { JobResult, ManifestEntry, PreparedRepository } from '@repocod/runner';
import { prepareRepository, runJob, runnerPaths } from '@repocod/runner';
import type { Job } from 'bullmq';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobMessage } from './job-message.js';
import { describeTests, readJobMessage } from './job-message.js';
import { DEFAULT_PREFIX, JOB_QUEUE } from './queue-names.js';
import { connectRedis, redisOptions } from './redis-connect.js';
import type { RedisAddress } from './redis-url.js';
import { RepositoryPool } from './repository-pool.js';
import type { ResultMessage, WorkerIdentity } from './result-message.js';
import { RESULT_FORMAT } from './result-message.js';
import type { StateSlot } from './state-slot.js';
import { claimStateSlot } from './state-slot.js';
import { WorkerHeartbeat } from './worker-registry.js';

export interface DistributedWorkerOptions {
  readonly address: RedisAddress;
  /** Jobs run at once, each in a worktree of its own (default 1). */
  readonly concurrency?: number;
  /** What relative manifest sources (the bundled demo) are relative to. */
  readonly projectRoot: string;
  /** The runner's state root; the worker takes a free `worker-<n>` folder under it. */
  readonly stateRoot: string;
  /** This folder instead, locked for this worker. */
  readonly state?: string;
  readonly prefix?: string;
  /**
   * Seconds a job's lock lasts without renewal (default 30): a worker silent that long (killed, its
   * machine gone) has its jobs put back on the queue for others.
   */
  readonly lockSeconds?: number;
  /**
   * The worker's own view of a job's repository: a machine whose clone lives elsewhere swaps in its
   * folder (`--source NAME=PATH`); the job hash, made of the commit and the recipe, is unchanged.
   */
  readonly entryFor?: (entry: ManifestEntry) => ManifestEntry;
  /** Repositories to prepare before taking jobs, so the first jobs do not wait for an environment. */
  readonly prepare?: readonly ManifestEntry[];
  readonly onLog?: (line: string) => void;
}

/** Times a job's worker may vanish before the job counts as failed (a job that kills its worker). */
const MAX_STALLS = 3;

/**
 * `repocod worker`: takes jobs from the queue, prepares their repository on first use (from the
 * manifest entry that comes with each job), runs them with the runner in its own worktrees, and
 * returns the result. A job that is not a job is rejected at once (no retry) with what is wrong with
 * it; a job whose repository cannot be prepared fails with the reason, and is retried (perhaps on
 * another worker) before the coordinator is told.
 */
export class DistributedWorker {
  private constructor(
    readonly identity: WorkerIdentity,
    readonly state: StateSlot,
    private readonly worker: Worker,
    private readonly redis: Redis,
    private readonly heartbeat: WorkerHeartbeat,
  ) {}

  static async start(options: DistributedWorkerOptions): Promise<DistributedWorker> {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RepocodError('usage', `--concurrency must be a whole number of at least 1, not ${concurrency}`);
    const redis = await connectRedis(options.address, 'repocod worker');
    const state = claimStateSlot(options.stateRoot, options.state);
    try {
      const log = options.onLog ?? (() => undefined);
      const identity: WorkerIdentity = {
        id: `${hostname()}:${process.pid}:${state.slot}`,
        host: hostname(),
        pid: process.pid,
        concurrency,
      };
      const repositories = new RepositoryPool((entry) => {
        log(`${entry.name}: preparing the checkout and environment in ${state.path}`);
        // The install's own output goes to the environment's log file (a failure names it), not to the worker's log.
        return prepareRepository(entry, runnerPaths(options.projectRoot, state.path), { workers: concurrency });
      });
      const entryFor = options.entryFor ?? ((entry: ManifestEntry) => entry);
      for (const entry of options.prepare ?? []) {
        const prepared = await repositories.repository(entryFor(entry));
        log(
          `${entry.name}: ready at ${prepared.checkout.baseCommit.slice(0, 12)}, environment ` +
            `${prepared.environment.key.slice(0, 12)}`,
        );
      }
      const lockDuration = (options.lockSeconds ?? 30) * 1000;
      const worker = new Worker(JOB_QUEUE, (job: Job) => runQueueJob(job, repositories, identity, entryFor, log), {
        connection: redisOptions(options.address),
        prefix: options.prefix ?? DEFAULT_PREFIX,
        concurrency,
        lockDuration,
        stalledInterval: Math.max(1000, lockDuration / 2),
        maxStalledCount: MAX_STALLS,
        name: identity.id,
        autorun: false,
      });
      worker.on('error', (error) => log(`queue connection: ${error.message}`));
      const heartbeat = new WorkerHeartbeat(redis, options.prefix ?? DEFAULT_PREFIX, identity);
      await heartbeat.start();
      void worker.run();
      await worker.waitUntilReady();
      log(
        `worker ${identity.id} takes jobs from ${options.address.display} (concurrency ${concurrency}, state ` +
          `${state.path})`,
      );
      return new DistributedWorker(identity, state, worker, redis, heartbeat);
    } catch (error) {
      state.release();
      redis.disconnect();
      throw error;
    }
  }

  /** Takes no new job; with `now`, leaves the running ones to be retried elsewhere, else finishes them. */
  async close(now = false): Promise<void> {
    await this.heartbeat.stop();
    await this.worker.close(now);
    this.redis.disconnect();
    this.state.release();
  }
}

async function runQueueJob(
  job: Job,
  repositories: RepositoryPool,
  identity: WorkerIdentity,
  entryFor: (entry: ManifestEntry) => ManifestEntry,
  log: (line: string) => void,
): Promise<ResultMessage> {
  const jobId = job.id ?? '(no id)';
  let message: JobMessage;
  try {
    const read = readJobMessage(job.data, jobId);
    message = { ...read, entry: entryFor(read.entry) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`rejected: ${reason}`);
    // Another worker would find the same fault: the job fails now, with the reason, for the coordinator.
    throw new UnrecoverableError(`rejected by worker ${identity.id}: ${reason}`);
  }
  const name = message.entry.name;
  const tests = describeTests(message.job);
  log(`${name}: job ${jobId.slice(0, 12)} (${tests}) started`);
  const started = performance.now();
  let result: JobResult;
  try {
    const prepared = await matchingRepository(message, repositories);
    result = await repositories.withWorktree(prepared, (worktree) => runJob(message.job, prepared, worktree));
    if (result.jobHash !== message.jobHash)
      throw new Error(
        `${name}: job ${jobId.slice(0, 12)} hashes to ${result.jobHash.slice(0, 12)} on worker ${identity.id}: run ` +
          `the ` +
          `same repocod version on the coordinator and the workers`,
      );
  } catch (error) {
    // BullMQ retries it (perhaps elsewhere) and gives the coordinator the reason once the attempts are spent.
    log(`${name}: job ${jobId.slice(0, 12)} failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  const outcomes = result.runs
    .flatMap((run) => run.results)
    .reduce<Record<string, number>>((counts, test) => {
      counts[test.outcome] = (counts[test.outcome] ?? 0) + 1;
      return counts;
    }, {});
  const statuses = [...new Set(result.runs.map((run) => run.status))].join('/');
  const summary =
    result.patchError !== null
      ? 'patch did not apply'
      : Object.entries(outcomes)
          .map(([outcome, count]) => `${count} ${outcome}`)
          .join(', ') || `no test results (run ${statuses})`;
  log(`${name}: job ${jobId.slice(0, 12)} done: ${summary} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { format: RESULT_FORMAT, jobHash: message.jobHash, worker: identity, result };
}

/**
 * The repository as the coordinator has it. A source folder without a base commit (the bundled demo)
 * may have changed since this worker snapshotted it, so it is prepared once more before the job is
 * refused; a repository at a fixed commit would only come out the same again.
 */
async function matchingRepository(message: JobMessage, repositories: RepositoryPool): Promise<PreparedRepository> {
  let prepared = await repositories.repository(message.entry);
  if (matches(prepared, message)) return prepared;
  if (message.entry.baseCommit === null) prepared = await repositories.repository(message.entry, true);
  if (matches(prepared, message)) return prepared;
  throw new Error(
    `${message.entry.name}: this worker's checkout is at ${prepared.checkout.baseCommit.slice(0, 12)} with ` +
      `environment ` +
      `${prepared.environment.key.slice(0, 12)}, the coordinator's at ${message.baseCommit.slice(0, 12)} with ` +
      `environment ` +
      `${message.environmentKey.slice(0, 12)}: the source folders or manifests differ between the machines`,
  );
}

function matches(prepared: PreparedRepository, message: JobMessage): boolean {
  return prepared.checkout.baseCommit === message.baseCommit && prepared.environment.key === message.environmentKey;
}
