import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchStandIn, StandInDigestError } from './fetch-stand-in.js';

const temp = mkdtempSync(join(tmpdir(), 'repocod-stand-in-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A real .tar.gz of one folder, as an sdist is laid out. */
function sdist(): Uint8Array {
  const source = join(temp, 'build', 'pkg-1.0');
  mkdirSync(join(source, 'pkg'), { recursive: true });
  writeFileSync(join(source, 'pkg', '__init__.py'), 'VERSION = "1.0"\n');
  writeFileSync(join(source, 'pyproject.toml'), '[project]\nname = "pkg"\n');
  const archive = join(temp, 'build', 'pkg-1.0.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', join(temp, 'build'), 'pkg-1.0']);
  return new Uint8Array(readFileSync(archive));
}

describe('fetchStandIn', () => {
  const bytes = sdist();
  const standIn = { sdist: 'https://files.example.org/p/pkg-1.0.tar.gz', sha256: contentHash(bytes), why: 'test' };

  it('downloads once, checks the sha256, and unpacks the sdist’s folder, found again the second time', async () => {
    const state = join(temp, 'state');
    let downloads = 0;
    const fetchArchive = async (url: string): Promise<Uint8Array> => {
      expect(url).toBe(standIn.sdist);
      downloads++;
      return bytes;
    };
    const folder = await fetchStandIn('pkg', standIn, state, fetchArchive);
    expect(folder).toBe(join(state, 'src', `pkg-stand-in-${standIn.sha256.slice(0, 12)}`, 'pkg-1.0'));
    expect(readFileSync(join(folder, 'pkg', '__init__.py'), 'utf8')).toBe('VERSION = "1.0"\n');
    expect(existsSync(join(state, 'downloads', 'pkg-1.0.tar.gz'))).toBe(true);
    expect(await fetchStandIn('pkg', standIn, state, fetchArchive)).toBe(folder);
    expect(downloads).toBe(1);
  });

  it('refuses an archive whose sha256 is not the manifest’s, unpacking nothing and keeping it aside', async () => {
    const state = join(temp, 'other-state');
    // A stand-in fetched before, under its own digest: the refused one must leave it as it is.
    const before = await fetchStandIn('pkg', standIn, state, async () => bytes);
    const wrong = { ...standIn, sha256: '0'.repeat(64) };
    const refused: unknown = await fetchStandIn('pkg', wrong, state, async () => bytes).catch((error) => error);
    const kept = join(state, 'downloads', 'pkg-1.0.tar.gz.mismatch');
    expect(refused).toBeInstanceOf(StandInDigestError);
    expect(refused).toMatchObject({
      code: 'usage',
      repository: 'pkg',
      url: standIn.sdist,
      expected: '0'.repeat(64),
      actual: standIn.sha256,
      kept,
    });
    expect(String(refused)).toContain(
      `has sha256 ${standIn.sha256}, the manifest's stand_in.sha256 is ${'0'.repeat(64)}`,
    );
    expect(String(refused)).toContain('correct stand_in.sha256 in the manifest, or give the source with --source pkg=');
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(join(state, 'src', `pkg-stand-in-${'0'.repeat(12)}`))).toBe(false);
    expect(readFileSync(join(before, 'pkg', '__init__.py'), 'utf8')).toBe('VERSION = "1.0"\n');
  });
});
