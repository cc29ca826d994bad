import type { Job } from 'bullmq';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobMessage } from './job-message.js';
import { DEFAULT_PREFIX, JOB_QUEUE } from './queue-names.js';
import { connectRedis, redisOptions } from './redis-connect.js';
import type { RedisAddress } from './redis-url.js';
import type { WorkerIdentity } from './result-message.js';
import { liveWorkers } from './worker-registry.js';

/** What the coordinator hears about its jobs (BullMQ's queue events, by job id). */
export type QueueArrival =
  | { readonly kind: 'active'; readonly jobId: string }
  | { readonly kind: 'completed'; readonly jobId: string; readonly value: unknown }
  | { readonly kind: 'failed'; readonly jobId: string; readonly reason: string };

export interface JobQueueOptions {
  /** Key prefix on the Redis (default `repocod`): separate prefixes are separate clusters. */
  readonly prefix?: string;
}

/**
 * How long a finished job waits on the queue for its coordinator (one that died and comes back takes
 * it then); a result nobody came back for is dropped after that (BullMQ removes it lazily).
 */
const KEPT = { age: 7 * 24 * 3600 };

/** Attempts of a job whose worker reported an error (a worker that dies is retried apart from these). */
const ATTEMPTS = 3;

/**
 * The coordinator's side of the queue: it puts jobs on, hears them start, finish or fail, reads a
 * job's state when it may have missed an event, and takes a job off once its result is stored. Job
 * ids are job hashes, so the same job put on twice (a restarted coordinator) is one job, and its
 * result, once in, is found again.
 */
export class JobQueue {
  /** Job slots of the workers last seen (their summed concurrency; 0 when none was connected). */
  knownSlots = 0;

  private constructor(
    readonly address: RedisAddress,
    readonly prefix: string,
    private readonly redis: Redis,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {}

  static async connect(address: RedisAddress, options: JobQueueOptions = {}): Promise<JobQueue> {
    const redis = await connectRedis(address, '--executor');
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    const connection = redisOptions(address);
    // Results travel in the job, not the event stream: a short stream is enough to wake the coordinator.
    const queue = new Queue(JOB_QUEUE, { connection, prefix, streams: { events: { maxLen: 2000 } } });
    const events = new QueueEvents(JOB_QUEUE, { connection, prefix });
    queue.on('error', () => undefined);
    events.on('error', () => undefined);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    const jobQueue = new JobQueue(address, prefix, redis, queue, events);
    await jobQueue.workers();
    return jobQueue;
  }

  /** Calls `listener` for every event of the queue from now on; returns the unsubscribe. */
  watch(listener: (arrival: QueueArrival) => void): () => void {
    const active = ({ jobId }: { jobId: string }): void => listener({ kind: 'active', jobId });
    const completed = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }): void =>
      listener({ kind: 'completed', jobId, value: returnvalue });
    const failed = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void =>
      listener({ kind: 'failed', jobId, reason: failedReason });
    this.events.on('active', active);
    this.events.on('completed', completed);
    this.events.on('failed', failed);
    return () => {
      this.events.off('active', active);
      this.events.off('completed', completed);
      this.events.off('failed', failed);
    };
  }

  /**
   * Puts the jobs on the queue under their hashes. A job already there (waiting, running or done) is
   * left as it is: it is this job. A job that failed in an earlier run is taken off and put on afresh,
   * with its attempts back.
   */
  async submit(messages: readonly JobMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += 500) {
      const chunk = messages.slice(start, start + 500);
      // Asked together, the states travel in one pipeline rather than a round trip each.
      const states = await Promise.all(chunk.map((message) => this.queue.getJobState(message.jobHash)));
      await Promise.all(
        chunk.filter((_, index) => states[index] === 'failed').map((message) => this.queue.remove(message.jobHash)),
      );
    }
    for (let start = 0; start < messages.length; start += 500) {
      await this.queue.addBulk(
        messages.slice(start, start + 500).map((message) => ({
          name: message.entry.name,
          data: message,
          opts: {
            jobId: message.jobHash,
            attempts: ATTEMPTS,
            backoff: { type: 'fixed', delay: 2000 },
            removeOnComplete: KEPT,
            removeOnFail: KEPT,
          },
        })),
      );
    }
  }

  /** Where a job is now, read from Redis (for events the coordinator may have missed). */
  async lookup(
    jobId: string,
  ): Promise<QueueArrival | { readonly kind: 'waiting' | 'missing'; readonly jobId: string }> {
    // The state first, then the job: a job read first may finish in between, and its result be missed.
    const state = await this.queue.getJobState(jobId);
    if (state === 'unknown') return { kind: 'missing', jobId };
    if (state !== 'completed' && state !== 'failed') return { kind: state === 'active' ? 'active' : 'waiting', jobId };
    const job: Job | undefined = await this.queue.getJob(jobId);
    if (job === undefined) return { kind: 'missing', jobId };
    return state === 'completed'
      ? { kind: 'completed', jobId, value: job.returnvalue }
      : { kind: 'failed', jobId, reason: job.failedReason };
  }

  /** Takes a job off once its result is stored by the coordinator: nothing is left to find again. */
  async forget(jobId: string): Promise<void> {
    await this.queue.remove(jobId);
  }

  async workers(): Promise<WorkerIdentity[]> {
    const workers = await liveWorkers(this.redis, this.prefix);
    this.knownSlots = workers.reduce((sum, worker) => sum + worker.concurrency, 0);
    return workers;
  }

  /** Jobs waiting or running on the queue (of any coordinator). */
  async pending(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    this.redis.disconnect();
  }
}
