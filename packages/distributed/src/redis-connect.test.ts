import { describe, expect, it } from 'vitest';
import { unreachableMessage } from './redis-connect.js';
import { parseRedisUrl } from './redis-url.js';

describe('unreachableMessage', () => {
  const address = parseRedisUrl('redis://:wrong@queue.lab:6420', '--executor');

  it('tells a refused password from a server that is not there, without showing the password', () => {
    const refused = unreachableMessage(
      '--executor',
      address,
      'WRONGPASS invalid username-password pair or user is disabled.',
    );
    expect(refused).toBe(
      "--executor: Redis at redis://queue.lab:6420 refused the connection's credentials (WRONGPASS invalid " +
        'username-password pair or user is disabled.); give the user and password in the URL: ' +
        'redis://user:password@HOST:PORT ' +
        '(or redis://:password@HOST:PORT)',
    );
    expect(unreachableMessage('repocod worker', address, 'NOAUTH Authentication required.')).toMatch(
      /^repocod worker: Redis at redis:\/\/queue.lab:6420 refused the connection's credentials/,
    );
    const down = unreachableMessage('--executor', address, 'connect ECONNREFUSED 10.0.0.5:6420');
    expect(down).toBe(
      '--executor: cannot reach Redis at redis://queue.lab:6420 (connect ECONNREFUSED 10.0.0.5:6420); start ' +
        'redis-server there, or check the address and that the port is open to this machine',
    );
    expect(`${refused}${down}`).not.toContain('wrong');
  });
});
