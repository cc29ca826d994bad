import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { Redis } from 'ioredis';

/** A Redis server for tests and benchmarks: the one named by an environment variable, or a private one. */
export interface RedisForRun {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * `REPOCOD_TEST_REDIS_URL` when set (CI starts one redis-server for the whole run), else a private
 * redis-server on a free loopback port, in memory only, stopped by `stop()`.
 */
export async function redisForRun(): Promise<RedisForRun> {
  const given = process.env.REPOCOD_TEST_REDIS_URL;
  if (given !== undefined && given !== '') return { url: given, stop: async () => undefined };
  return startRedisServer();
}

export async function startRedisServer(): Promise<RedisForRun> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new RepocodError(
      'tool-missing',
      'redis-server is not installed: install it (Debian: apt-get install redis-server) or set ' +
        'REPOCOD_TEST_REDIS_URL ' +
        'to a running server',
    );
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'repocod-redis-'));
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return { url, stop };
    } catch {
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new RepocodError('tool-missing', `redis-server did not answer on port ${port} within 5 s`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
