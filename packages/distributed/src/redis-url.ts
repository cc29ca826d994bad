import { RepocodError } from '@repocod/core';

/** Where the coordinator and the workers meet: a Redis server, and a database on it. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** The URL without its password, for messages and logs. */
  readonly display: string;
}

/**
 * `redis://[user:password@]HOST[:PORT][/DB]` (or `rediss://` for TLS), as `--executor` and
 * `--redis` take it. `what` names the option in the error, so the user knows which one to mend.
 */
export function parseRedisUrl(text: string, what: string): RedisAddress {
  const hint =
    `${what} wants redis://HOST:PORT (for example redis://127.0.0.1:6379, or ` + `redis://HOST:PORT/2 for database 2)`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RepocodError('usage', `${what} ${JSON.stringify(text)} is not a URL: ${hint}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new RepocodError(
      'usage',
      `${what} ${JSON.stringify(text)}: the scheme must be redis:// or rediss://; ${hint}`,
    );
  if (url.hostname === '') throw new RepocodError('usage', `${what} ${JSON.stringify(text)} names no host; ${hint}`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (!/^\d*$/.test(path))
    throw new RepocodError(
      'usage',
      `${what} ${JSON.stringify(text)}: the path must be a database number, not "${path}"; ${hint}`,
    );
  if (url.search !== '' || url.hash !== '')
    throw new RepocodError(
      'usage',
      `${what} ${JSON.stringify(text)}: query strings and fragments are not understood; ${hint}`,
    );
  const db = path === '' ? 0 : Number(path);
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const user = username === undefined ? '' : `${username}@`;
  const display = `${url.protocol}//${user}${url.hostname}:${port}${db === 0 ? '' : `/${db}`}`;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    username,
    password,
    tls: url.protocol === 'rediss:',
    display,
  };
}
