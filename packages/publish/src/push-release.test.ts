import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, folderContents, writeReleaseFixture } from './testing/hub-test-support.js';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { planPush, pushRelease } from './push-release.js';
import { PARQUET_NAME } from './release-folder.js';

let hub: LoopbackHub;
beforeEach(async () => {
  hub = await startLoopbackHub();
});
afterEach(async () => {
  await hub.close();
});

const count = (endpoint: string): number => hub.requests().filter((request) => request.endpoint === endpoint).length;

describe('planPush', () => {
  it('lists each file with its size and the total, and refuses missing or escaping paths', () => {
    const { folder, files } = writeReleaseFixture(['1.0']);
    const plan = planPush(folder, files);
    expect(plan.files.map((file) => file.path)).toEqual(files);
    expect(plan.files.map((file) => file.bytes)).toEqual(
      files.map((file) => readFileSync(join(folder, file)).byteLength),
    );
    expect(plan.totalBytes).toBe(plan.files.reduce((sum, file) => sum + file.bytes, 0));
    expect(() => planPush(folder, ['2.0/test-00000-of-00001.parquet'])).toThrow(
      /2\.0\/test-00000-of-00001\.parquet does not exist; write the release first/,
    );
    expect(() => planPush(folder, ['../README.md'])).toThrow(/relative to the release folder/);
    expect(() => planPush(folder, ['README.md', 'README.md'])).toThrow(/listed twice/);
  });
});

describe('pushRelease', () => {
  it(
    'creates the repository once and pushes each release as one commit, Parquet through LFS, ' + 'byte for byte',
    async () => {
      const first = writeReleaseFixture(['1.0']);
      const pushed = await pushRelease({
        folder: first.folder,
        files: first.files,
        repo: 'repocod/demo',
        hubUrl: hub.url,
        accessToken: hub.token,
        commitTitle: 'Release 1.0',
        commitDescription: '2 tasks',
      });
      expect(pushed.created).toBe(true);
      expect(pushed.uploaded.map((file) => file.path)).toEqual([
        'README.md',
        `data/${PARQUET_NAME}`,
        `1.0/${PARQUET_NAME}`,
        '1.0/validation.jsonl',
      ]);
      const [commit] = hub.commits('repocod/demo');
      expect(commit).toMatchObject({ title: 'Release 1.0', description: '2 tasks', oid: pushed.commitOid });
      expect(pushed.commitUrl).toBe(`${hub.url}/datasets/repocod/demo/commit/${pushed.commitOid}`);
      expect(commit?.files.map((file) => [file.path, file.lfs])).toEqual([
        ['README.md', false],
        [`data/${PARQUET_NAME}`, true],
        [`1.0/${PARQUET_NAME}`, true],
        ['1.0/validation.jsonl', false],
      ]);
      for (const file of commit?.files ?? [])
        expect(Buffer.from(file.bytes).equals(readFileSync(join(first.folder, file.path)))).toBe(true);
      // data/ and 1.0/ hold the same bytes: one LFS object, uploaded once.
      expect([count('lfs-batch'), count('lfs-upload')]).toEqual([1, 1]);

      // The next version, in the same folder layout with 1.0 kept: the repository exists, so no creation.
      const second = writeReleaseFixture(['1.0', '1.1']);
      const again = await pushRelease({
        folder: second.folder,
        files: second.files,
        repo: 'repocod/demo',
        hubUrl: hub.url,
        accessToken: hub.token,
        commitTitle: 'Release 1.1',
      });
      expect(again.created).toBe(false);
      expect(count('create-repo')).toBe(1);
      // 1.0 is stored on the Hub already; only 1.1 (= data/) travels.
      expect([count('lfs-batch'), count('lfs-upload')]).toEqual([2, 2]);
      expect(hub.commits('repocod/demo').map((item) => item.title)).toEqual(['Release 1.0', 'Release 1.1']);
      expect(hub.commits('repocod/demo')[1]?.description).toBe('');
      const stored = hub.files('repocod/demo');
      expect([...(stored?.keys() ?? [])].sort()).toEqual([
        `1.0/${PARQUET_NAME}`,
        '1.0/validation.jsonl',
        `1.1/${PARQUET_NAME}`,
        '1.1/validation.jsonl',
        'README.md',
        `data/${PARQUET_NAME}`,
      ]);
      for (const path of second.files)
        expect(Buffer.from(stored?.get(path)?.bytes ?? []).equals(readFileSync(join(second.folder, path)))).toBe(true);
    },
  );

  it('pushes into a repository that exists already', async () => {
    hub.addRepo('org/existing', { files: { '.gitattributes': '*.parquet filter=lfs diff=lfs merge=lfs -text\n' } });
    const { folder, files } = writeReleaseFixture(['1.0']);
    const pushed = await pushRelease({
      folder,
      files,
      repo: 'org/existing',
      hubUrl: hub.url,
      accessToken: hub.token,
      commitTitle: 'Release 1.0',
    });
    expect(pushed.created).toBe(false);
    expect(count('create-repo')).toBe(0);
    expect([...(hub.files('org/existing')?.keys() ?? [])]).toEqual(['.gitattributes', ...files]);
  });

  it('turns a failed commit into hub-failed naming the rerun, without the token, the folder untouched', async () => {
    const { folder, files } = writeReleaseFixture(['1.0']);
    const before = folderContents(folder);
    hub.failNext('commit', 500, 'Internal Error - We are working hard to fix this as soon as possible!');
    const error = await failure(() =>
      pushRelease({
        folder,
        files,
        repo: 'org/name',
        hubUrl: hub.url,
        accessToken: hub.token,
        commitTitle: 'Release 1.0',
      }),
    );
    expect(error.code).toBe('hub-failed');
    expect(error.message).toContain(
      `uploading 4 files (${planPush(folder, files).totalBytes} bytes) to ${hub.url}/datasets/org/name in one commit ` +
        `failed: status 500: Internal Error - We are working hard`,
    );
    expect(error.message).toContain(`The release folder ${folder} was not changed`);
    expect(error.message).toContain(`rerun: repocod publish --push org/name --out ${folder}`);
    expect(error.message).not.toContain(hub.token);
    expect(hub.commits('org/name')).toEqual([]);
    expect(folderContents(folder)).toEqual(before);
  });

  it('reports a token the Hub refuses by its status, never by its value', async () => {
    const { folder, files } = writeReleaseFixture(['1.0']);
    const wrong = 'hf_notTheLoopbackToken42';
    const error = await failure(() =>
      pushRelease({ folder, files, repo: 'org/name', hubUrl: hub.url, accessToken: wrong, commitTitle: 'Release 1.0' }),
    );
    expect(error.code).toBe('hub-failed');
    expect(error.message).toMatch(
      new RegExp(
        String.raw`creating the dataset repository .* failed: status 401: Invalid credentials in Authorization head` +
          String.raw`er.*check that HF_TOKEN holds a valid token`,
      ),
    );
    expect(error.message).not.toContain(wrong);
  });

  it('says what failed when the Hub cannot be reached', async () => {
    const { folder, files } = writeReleaseFixture(['1.0']);
    const url = hub.url;
    await hub.close();
    const error = await failure(() =>
      pushRelease({ folder, files, repo: 'org/name', hubUrl: url, accessToken: 'hf_whatever123456', commitTitle: 'x' }),
    );
    expect(error.message).toMatch(
      /checking whether .*\/datasets\/org\/name exists failed: fetch failed \(.*ECONNREFUSED.*\)/,
    );
    expect(error.message).not.toContain('hf_whatever123456');
    hub = await startLoopbackHub();
  });

  it('refuses a bad repository name or an ill-formed token before any request', async () => {
    const { folder, files } = writeReleaseFixture(['1.0']);
    const name = await failure(() =>
      pushRelease({ folder, files, repo: 'org/bad--name', hubUrl: hub.url, accessToken: hub.token, commitTitle: 'x' }),
    );
    expect([name.code, name.message]).toEqual([
      'usage',
      '--push "org/bad--name": the name "bad--name" may not contain "--" or ".."',
    ]);
    const token = await failure(() =>
      pushRelease({ folder, files, repo: 'org/name', hubUrl: hub.url, accessToken: 'ghp_secret123', commitTitle: 'x' }),
    );
    expect(token.code).toBe('hub-failed');
    expect(token.message).toMatch(/^the access token is set but does not look like a Hugging Face token/);
    expect(token.message).not.toContain('ghp_secret123');
    expect(hub.requests()).toEqual([]);
  });
});
