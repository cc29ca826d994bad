import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoopbackHub } from './loopback-hub.js';
import { startLoopbackHub } from './loopback-hub.js';

let hub: LoopbackHub;
beforeEach(async () => {
  hub = await startLoopbackHub();
});
afterEach(async () => {
  await hub.close();
});

const auth = (): Record<string, string> => ({ Authorization: `Bearer ${hub.token}` });

async function commitLines(repo: string, lines: readonly object[]): Promise<Response> {
  return fetch(`${hub.url}/api/datasets/${repo}/commit/main`, {
    method: 'POST',
    headers: { ...auth(), 'Content-Type': 'application/x-ndjson' },
    body: lines.map((line) => JSON.stringify(line)).join('\n'),
  });
}

describe('startLoopbackHub', () => {
  it('listens on 127.0.0.1 and answers repository info: 404 (RepoNotFound) or the repository', async () => {
    expect(hub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const absent = await fetch(`${hub.url}/api/datasets/org/name?expand[]=likes`);
    expect(absent.status).toBe(404);
    expect(absent.headers.get('x-error-code')).toBe('RepoNotFound');
    hub.addRepo('org/name');
    const present = await fetch(`${hub.url}/api/datasets/org/name?expand[]=likes`);
    expect(await present.json()).toMatchObject({ id: 'org/name', private: false });
    expect(hub.requests().map((request) => [request.method, request.path, request.endpoint, request.status])).toEqual([
      ['GET', '/api/datasets/org/name', 'repo-info', 404],
      ['GET', '/api/datasets/org/name', 'repo-info', 200],
    ]);
  });

  it('wants the matching Bearer token for writes and for private repositories, and refuses a wrong one', async () => {
    const create = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${hub.url}/api/repos/create`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'secret', organization: 'org', type: 'dataset', visibility: 'private' }),
      });
    expect((await create({})).status).toBe(401);
    expect((await create({ Authorization: 'Bearer hf_wrong' })).status).toBe(401);
    expect((await create(auth())).status).toBe(200);
    expect((await create(auth())).status).toBe(409);
    expect((await fetch(`${hub.url}/api/datasets/org/secret`)).status).toBe(401);
    expect((await fetch(`${hub.url}/api/datasets/org/secret`, { headers: auth() })).status).toBe(200);
  });

  it('stores an LFS object only when its bytes hash to the oid, through a one-time upload URL', async () => {
    hub.addRepo('org/name');
    const bytes = new TextEncoder().encode('PAR1 not really parquet PAR1');
    const oid = createHash('sha256').update(bytes).digest('hex');
    const batch = async (): Promise<{ transfer: string; objects: { actions?: { upload?: { href: string } } }[] }> => {
      const response = await fetch(`${hub.url}/datasets/org/name.git/info/lfs/objects/batch`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({
          operation: 'upload',
          transfers: ['basic', 'multipart', 'xet'],
          objects: [{ oid, size: bytes.byteLength }],
        }),
      });
      return (await response.json()) as { transfer: string; objects: { actions?: { upload?: { href: string } } }[] };
    };
    const first = await batch();
    expect(first.transfer).toBe('basic');
    const href = first.objects[0]?.actions?.upload?.href ?? '';
    expect(href.startsWith(hub.url)).toBe(true);
    const wrong = await fetch(href, {
      method: 'PUT',
      body: new TextEncoder().encode('PAR1 other bytes, same size PAR1'.slice(0, bytes.byteLength)),
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toMatch(/not the oid/);
    const retry = (await batch()).objects[0]?.actions?.upload?.href ?? '';
    expect((await fetch(retry, { method: 'PUT', body: bytes })).status).toBe(200);
    expect((await fetch(retry, { method: 'PUT', body: bytes })).status).toBe(403);
    expect((await batch()).objects[0]?.actions).toBeUndefined();

    const committed = await commitLines('org/name', [
      { key: 'header', value: { summary: 'Add data', description: 'why' } },
      { key: 'lfsFile', value: { path: 'data/x.parquet', algo: 'sha256', oid, size: bytes.byteLength } },
      {
        key: 'file',
        value: { path: 'README.md', content: Buffer.from('# card\n').toString('base64'), encoding: 'base64' },
      },
    ]);
    expect(committed.status).toBe(200);
    const [commit] = hub.commits('org/name');
    expect(commit).toMatchObject({ title: 'Add data', description: 'why', deleted: [] });
    expect(commit?.files.map((file) => [file.path, file.lfs, Buffer.from(file.bytes).toString()])).toEqual([
      ['data/x.parquet', true, 'PAR1 not really parquet PAR1'],
      ['README.md', false, '# card\n'],
    ]);
  });

  it('applies a commit all or nothing', async () => {
    hub.addRepo('org/name', { files: { 'README.md': 'old card\n' } });
    const refused = await commitLines('org/name', [
      { key: 'header', value: { summary: 'Half a commit' } },
      {
        key: 'file',
        value: { path: 'README.md', content: Buffer.from('new card\n').toString('base64'), encoding: 'base64' },
      },
      { key: 'lfsFile', value: { path: 'data/x.parquet', algo: 'sha256', oid: '0'.repeat(64), size: 3 } },
    ]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: string }).error).toBe(
      `data/x.parquet: no LFS object ${'0'.repeat(64)} was uploaded`,
    );
    expect(hub.commits('org/name').map((commit) => commit.title)).toEqual(['initial commit']);
    expect(Buffer.from(hub.files('org/name')?.get('README.md')?.bytes ?? []).toString()).toBe('old card\n');
  });

  it('lists the tree and serves files with ranges, ETag and EntryNotFound', async () => {
    hub.addRepo('org/name', {
      files: { 'README.md': '0123456789', 'data/a.parquet': 'PAR1aaPAR1', 'data/deep/b.txt': 'b' },
    });
    const tree = async (suffix: string): Promise<unknown> =>
      (await fetch(`${hub.url}/api/datasets/org/name/tree/main${suffix}`)).json();
    expect(
      ((await tree('?recursive=false')) as { path: string; type: string }[]).map((entry) => [entry.type, entry.path]),
    ).toEqual([
      ['file', 'README.md'],
      ['directory', 'data'],
    ]);
    const all = (await tree('?recursive=true')) as {
      path: string;
      type: string;
      lfs?: { oid: string; size: number };
    }[];
    expect(all.map((entry) => entry.path)).toEqual([
      'README.md',
      'data',
      'data/a.parquet',
      'data/deep',
      'data/deep/b.txt',
    ]);
    expect(all.find((entry) => entry.path === 'data/a.parquet')?.lfs).toMatchObject({
      oid: createHash('sha256').update('PAR1aaPAR1').digest('hex'),
      size: 10,
    });
    expect(((await tree('/data/deep?recursive=false')) as { path: string }[]).map((entry) => entry.path)).toEqual([
      'data/deep/b.txt',
    ]);

    const resolve = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
      fetch(`${hub.url}/datasets/org/name/resolve/main/${path}`, { headers });
    const probe = await resolve('README.md', { Range: 'bytes=0-0' });
    expect([probe.status, probe.headers.get('content-range'), await probe.text()]).toEqual([206, 'bytes 0-0/10', '0']);
    expect(probe.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await (await resolve('README.md', { Range: 'bytes=7-' })).text()).toBe('789');
    expect(await (await resolve('README.md', { Range: 'bytes=-2' })).text()).toBe('89');
    expect((await resolve('README.md', { Range: 'bytes=10-12' })).status).toBe(416);
    expect(await (await resolve('README.md')).text()).toBe('0123456789');
    const missing = await resolve('1.0/none.parquet');
    expect([missing.status, missing.headers.get('x-error-code')]).toEqual([404, 'EntryNotFound']);
  });

  it('fails the request it is told to, once, and answers 404 to what it does not implement', async () => {
    hub.addRepo('org/name');
    hub.failNext('repo-info', 503, 'The Hub is down for maintenance…', (request) => request.path.endsWith('/name'));
    const failed = await fetch(`${hub.url}/api/datasets/org/name`);
    expect([failed.status, await failed.json()]).toEqual([503, { error: 'The Hub is down for maintenance…' }]);
    expect((await fetch(`${hub.url}/api/datasets/org/name`)).status).toBe(200);
    expect((await fetch(`${hub.url}/api/whoami-v2`)).status).toBe(404);
    expect(hub.requests().at(-1)).toMatchObject({ path: '/api/whoami-v2', endpoint: null, status: 404 });
  });
});
