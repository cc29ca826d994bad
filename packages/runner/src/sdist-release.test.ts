import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  NotAPythonSdistError,
  openSdistArchive,
  pkgInfoFields,
  readReleaseFolder,
  sameProjectName,
} from './sdist-release.js';

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

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('openSdistArchive and readReleaseFolder', () => {
  const { folder, archive } = sdist('2025-01-09T15:16:40Z');

  it('unpacks an archive once under the state folder and reads its name, version, date and sha256', () => {
    const state = join(temp, 'state');
    const release = openSdistArchive('pkg', archive, state);
    const sha256 = contentHash(readFileSync(archive));
    expect(release).toEqual({
      given: archive,
      folder: join(state, 'src', `pkg-release-${sha256.slice(0, 12)}`, 'pkg-1.6.1'),
      project: 'Pkg_Thing',
      version: '1.6.1',
      releasedAt: '2025-01-09T15:16:40Z',
      sha256,
    });
    // tar kept the build's times: the release date is the newest file's, not the unpacking's.
    expect(openSdistArchive('pkg', archive, state)).toEqual(release);
  });

  it("reads a source folder in place, with no sha256 (it is not PyPI's file)", () => {
    expect(readReleaseFolder('pkg', folder)).toEqual({
      given: folder,
      folder,
      project: 'Pkg_Thing',
      version: '1.6.1',
      releasedAt: '2025-01-09T15:16:40Z',
      sha256: null,
    });
  });

  it('refuses what is not a Python sdist, naming the option, the repository, the path and the problem', () => {
    const build = (name: string, pkgInfo: string | null, python: boolean): string => {
      const dir = join(temp, 'cases', name, `${name}-1.0`);
      mkdirSync(dir, { recursive: true });
      if (pkgInfo !== null) writeFileSync(join(dir, 'PKG-INFO'), pkgInfo);
      if (python) writeFileSync(join(dir, 'core.py'), 'x = 1\n');
      else writeFileSync(join(dir, 'README'), 'text\n');
      const tarball = join(temp, 'cases', `${name}-1.0.tar.gz`);
      execFileSync('tar', ['-czf', tarball, '-C', join(temp, 'cases', name), `${name}-1.0`]);
      return tarball;
    };
    const zip = join(temp, 'pkg-1.0.zip');
    writeFileSync(zip, 'not a tarball');
    const named = join(temp, 'fake-1.0.tar.gz');
    writeFileSync(named, 'a .tar.gz in name only');
    const cases = [
      [join(temp, 'nowhere.tar.gz'), 'missing'],
      [zip, 'not-a-tar-gz'],
      [named, 'not-a-tar-gz'],
      [folder, 'not-a-tar-gz'],
      [build('checkout', null, true), 'no-pkg-info'],
      [build('nameless', 'Version: 1.0\n', true), 'no-name'],
      [build('versionless', 'Name: pkg\n', true), 'no-version'],
      [build('nopython', 'Name: pkg\nVersion: 1.0\n', false), 'no-python-files'],
    ] as const;
    for (const [path, problem] of cases) {
      const error = refusal(() => openSdistArchive('pkg', path, join(temp, 'state-refused')));
      expect(error, path).toBeInstanceOf(NotAPythonSdistError);
      expect(error).toMatchObject({ code: 'usage', flag: '--dated-against', repository: 'pkg', path, problem });
      expect(String(error)).toContain(`--dated-against pkg=${path}: it `);
      expect(String(error)).toContain("give the sdist of pkg's last release before the cutoff");
    }
    const source = refusal(() => readReleaseFolder('pkg', archive));
    expect(source).toMatchObject({ flag: '--source', problem: 'not-a-folder' });
    expect(String(source)).toContain("give the folder pkg's sdist unpacked into");
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
