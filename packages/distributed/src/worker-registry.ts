import type { Redis } from 'ioredis';
import { workerKey, workerKeyPattern } from './queue-names.js';
import type { WorkerIdentity } from './result-message.js';

const BEAT_MS = 5_000;
/** A worker not heard from for three beats is gone (killed, or its machine lost). */
const EXPIRY_MS = 3 * BEAT_MS;

/**
 * A worker's presence on the Redis: a key that it renews every few seconds and that expires by
 * itself when the worker dies, so that the coordinator can say how many workers are there (and warn
 * when none is) without any worker having to say goodbye.
 */
export class WorkerHeartbeat {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly identity: WorkerIdentity,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => undefined), BEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.del(workerKey(this.prefix, this.identity.id)).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    await this.redis.set(workerKey(this.prefix, this.identity.id), JSON.stringify(this.identity), 'PX', EXPIRY_MS);
  }
}

/** The workers whose heartbeat is current, by id. */
export async function liveWorkers(redis: Redis, prefix: string): Promise<WorkerIdentity[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', workerKeyPattern(prefix), 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  return values
    .flatMap((value) => (value === null ? [] : [JSON.parse(value) as WorkerIdentity]))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}
