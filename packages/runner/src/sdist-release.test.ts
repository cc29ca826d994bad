import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import { NotAPythonSourceError, openSdistRelease, pkgInfoFields, sameProjectName } from './sdist-release.js';

const temp = mkdtempSync(join(tmpdir(), 'repocod-sdist-release-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const RELEASED = '2025-01-09T15:15:00Z';

/** An sdist's folder, every file at RELEASED but the one given `newest`; and its .tar.gz, made by tar. */
function sdist(newest = RELEASED): { folder: string; archive: string } {
  const folder = join(temp, 'build', 'pkg-1.6.1');
  mkdirSync(join(folder, 'pkg'), { recursive: true });
  writeFileSync(join(folder, 'PKG-INFO'), 'Metadata-Version: 2.1\nName: Pkg_Thing\nVersion: 1.6.1\n\nVersion: 9\n');
  writeFileSync(join(folder, 'pkg', '__init__.py'), 'VERSION = "1.6.1"\n');
  writeFileSync(join(folder, 'pkg', 'core.py'), 'def f():\n    return 1\n');
  for (const file of ['PKG-INFO', 'pkg/__init__.py'])
    utimesSync(join(folder, file), new Date(RELEASED), new Date(RELEASED));
  utimesSync(join(folder, 'pkg', 'core.py'), new Date(newest), new Date(newest));
  const archive = join(temp, 'pkg-1.6.1.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', join(temp, 'build'), 'pkg-1.6.1']);
  return { folder, archive };
}

describe('openSdistRelease', () => {
  const { folder, archive } = sdist('2025-01-09T15:16:40Z');

  it('unpacks an archive once under the state folder and reads its version, date and sha256', () => {
    const state = join(temp, 'state');
    const release = openSdistRelease('pkg', archive, state);
    const sha256 = contentHash(readFileSync(archive));
    expect(release).toEqual({
      given: archive,
      folder: join(state, 'src', `pkg-release-${sha256.slice(0, 12)}`, 'pkg-1.6.1'),
      project: 'Pkg_Thing',
      version: '1.6.1',
      releasedAt: '2025-01-09T15:16:40Z',
      sha256,
      digestOf: 'archive',
    });
    // tar kept the build's times: the release date is the newest file's, not the unpacking's.
    expect(openSdistRelease('pkg', archive, state)).toEqual(release);
  });

  it("reads a folder in place, named by its tree's digest, which a copy with other times keeps", () => {
    const release = openSdistRelease('pkg', folder, join(temp, 'unused'));
    expect(release).toMatchObject({ folder, version: '1.6.1', digestOf: 'tree', releasedAt: '2025-01-09T15:16:40Z' });
    const copy = join(temp, 'copy');
    cpSync(folder, copy, { recursive: true });
    const copied = openSdistRelease('pkg', copy, join(temp, 'unused'));
    expect(copied.sha256).toBe(release.sha256);
    expect(copied.releasedAt).not.toBe(release.releasedAt);
    writeFileSync(join(copy, 'pkg', 'core.py'), 'def f():\n    return 2\n');
    expect(openSdistRelease('pkg', copy, join(temp, 'unused')).sha256).not.toBe(release.sha256);
  });

  it('refuses what is not a Python project source, naming the repository, the path and the problem', () => {
    const refused = (path: string) => {
      try {
        openSdistRelease('pkg', path, join(temp, 'unused'));
      } catch (error) {
        return error;
      }
      return null;
    };
    const checkout = join(temp, 'checkout');
    mkdirSync(join(checkout, 'pkg'), { recursive: true });
    writeFileSync(join(checkout, 'pkg', 'core.py'), 'x = 1\n');
    const noPython = join(temp, 'no-python');
    mkdirSync(noPython, { recursive: true });
    writeFileSync(join(noPython, 'PKG-INFO'), 'Name: pkg\nVersion: 1.0\n');
    const noVersion = join(temp, 'no-version');
    mkdirSync(noVersion, { recursive: true });
    writeFileSync(join(noVersion, 'PKG-INFO'), 'Name: pkg\n');
    const zip = join(temp, 'pkg-1.0.zip');
    writeFileSync(zip, 'not a tarball');
    const cases = [
      [join(temp, 'nowhere'), 'missing'],
      [zip, 'not-an-sdist'],
      [checkout, 'no-pkg-info'],
      [noVersion, 'no-version'],
      [noPython, 'no-python-files'],
    ] as const;
    for (const [path, problem] of cases) {
      const error = refused(path);
      expect(error).toBeInstanceOf(NotAPythonSourceError);
      expect(error).toMatchObject({ code: 'usage', repository: 'pkg', path, problem });
      expect(String(error)).toContain(`pkg: ${path} `);
      expect(String(error)).toContain('give a release of pkg as PyPI has it');
    }
  });
});

describe('PKG-INFO and project names', () => {
  it('reads the header fields only, the first of a repeated one', () => {
    const fields = pkgInfoFields('Metadata-Version: 2.1\nName: scikit-learn\nVersion: 1.6.1\nVersion: 2\n\nName: x\n');
    expect([...fields]).toEqual([
      ['metadata-version', '2.1'],
      ['name', 'scikit-learn'],
      ['version', '1.6.1'],
    ]);
  });

  it('compares names as PyPI does', () => {
    expect(sameProjectName('scikit-learn', 'Scikit_Learn')).toBe(true);
    expect(sameProjectName('scikit-learn', 'scikit.learn')).toBe(true);
    expect(sameProjectName('scikit-learn', 'scikit-image')).toBe(false);
  });
});
