import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureFolder } from './ensure-folder.js';
import { makeTempDir } from './testing/test-support.js';

describe('ensureFolder', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('creates missing parents and accepts an existing folder', async () => {
    const folder = join(dir, 'a', 'b', 'c');
    await ensureFolder(folder);
    await ensureFolder(folder);
    expect((await stat(folder)).isDirectory()).toBe(true);
  });

  it('fails with ENOTDIR when a file is in the way', async () => {
    await writeFile(join(dir, 'f'), '');
    await expect(ensureFolder(join(dir, 'f', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('fails, rather than hanging, where the kernel refuses new folders', async () => {
    await expect(ensureFolder('/proc/repocod-test/sub')).rejects.toMatchObject({
      code: expect.stringMatching(/ENOENT|EACCES|EPERM|EROFS/),
    });
  });
});
