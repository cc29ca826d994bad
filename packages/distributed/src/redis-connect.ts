import { RepocodError } from '@repocod/core';
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { RedisAddress } from './redis-url.js';

/** ioredis options for an address; BullMQ's blocking connections need maxRetriesPerRequest null. */
export function redisOptions(address: RedisAddress): RedisOptions {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    ...(address.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/**
 * A plain client, connected once without retrying: an address that does not answer is an error at
 * once (ioredis would otherwise retry forever and the command would seem to hang).
 */
export async function connectRedis(address: RedisAddress, role: string): Promise<Redis> {
  const client = new Redis({
    ...redisOptions(address),
    lazyConnect: true,
    retryStrategy: () => null,
    connectTimeout: 5000,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND …) says more than the "Connection is closed" that connect()
  // rejects with.
  let cause: Error | undefined;
  client.on('error', (error: Error) => {
    cause ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new RepocodError(
      'executor-failed',
      unreachableMessage(role, address, (cause ?? (error instanceof Error ? error : new Error(String(error)))).message),
    );
  }
  // From here on a dropped connection is retried, as BullMQ's own are.
  client.options.retryStrategy = (times: number) => Math.min(times * 200, 5000);
  return client;
}

/** Why a first connection failed, with what to do: a refused password is not a server that is down. */
export function unreachableMessage(role: string, address: RedisAddress, reason: string): string {
  if (/^(WRONGPASS|NOAUTH|NOPERM)\b/.test(reason)) {
    return (
      `${role}: Redis at ${address.display} refused the connection's credentials (${reason}); give the user and ` +
      `password in the URL: redis://user:password@HOST:PORT (or redis://:password@HOST:PORT)`
    );
  }
  return (
    `${role}: cannot reach Redis at ${address.display} (${reason}); start redis-server there, or check the ` +
    `address and that the port is open to this machine`
  );
}
