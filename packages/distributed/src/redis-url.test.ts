import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './redis-url.js';

describe('parseRedisUrl', () => {
  it('reads host, port and database, with the default port and database', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6390', '--executor')).toMatchObject({
      host: '127.0.0.1',
      port: 6390,
      db: 0,
      tls: false,
      display: 'redis://127.0.0.1:6390',
    });
    expect(parseRedisUrl('redis://queue.lab', '--redis')).toMatchObject({ host: 'queue.lab', port: 6379, db: 0 });
    expect(parseRedisUrl('rediss://me:s%40cret@queue.lab:7000/3', '--redis')).toMatchObject({
      host: 'queue.lab',
      port: 7000,
      db: 3,
      username: 'me',
      password: 's@cret',
      tls: true,
    });
  });

  it('keeps the password out of what it displays', () => {
    expect(parseRedisUrl('redis://me:secret@queue.lab:7000/3', '--redis').display).toBe('redis://me@queue.lab:7000/3');
    expect(parseRedisUrl('redis://:secret@queue.lab', '--redis').display).toBe('redis://queue.lab:6379');
  });

  it('refuses what is not a redis URL, naming the option and the form it wants', () => {
    expect(() => parseRedisUrl('localhost:6379', '--executor')).toThrow(
      /--executor "localhost:6379": the scheme must be redis:\/\/.*redis:\/\/HOST:PORT/,
    );
    expect(() => parseRedisUrl('not a url', '--redis')).toThrow(/--redis "not a url" is not a URL/);
    expect(() => parseRedisUrl('redis://host:6379/jobs', '--redis')).toThrow(
      /the path must be a database number, not "jobs"/,
    );
    expect(() => parseRedisUrl('redis://host:6379?db=2', '--redis')).toThrow(/query strings/);
  });
});
