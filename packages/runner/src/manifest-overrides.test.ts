import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { parseManifest, type Manifest } from './manifest.js';
import { applySourceOverrides } from './manifest-overrides.js';

const MANIFEST: Manifest = parseManifest(
  [
    'repositories:',
    '  - name: flask',
    '    url: https://github.com/pallets/flask.git',
    '    base_commit: 2fec0b206c6e83ea813ab26597e15c96fab08be7',
    '    python: "3.11"',
    '    install: ["python -m pip install -e ."]',
    '    test_roots: [tests]',
    '  - name: scikit-learn',
    '    url: https://github.com/scikit-learn/scikit-learn.git',
    '    base_commit: c71340fd74280408b84be7ca008e1205e10c7830',
    '    python: "3.11"',
    '    install: ["python -m pip install -e ."]',
    '    test_roots: [sklearn]',
  ].join('\n'),
  'datasets/repocod/manifest.yaml',
);

const CLONES = mkdtempSync(join(tmpdir(), 'repocod-clones-'));
// Clones (a .git inside), and a release's sdist for scikit-learn (no .git), its newest file of 2024-09-11.
mkdirSync(join(CLONES, 'flask/.git'), { recursive: true });
mkdirSync(join(CLONES, 'with=equals/.git'), { recursive: true });
mkdirSync(join(CLONES, 'scikit-learn-1.5.2/sklearn'), { recursive: true });
writeFileSync(join(CLONES, 'scikit-learn-1.5.2/sklearn/__init__.py'), '');
writeFileSync(join(CLONES, 'scikit-learn-1.5.2/PKG-INFO'), 'Name: scikit-learn\nVersion: 1.5.2\n');
const touch = (file: string, iso: string): void =>
  utimesSync(join(CLONES, 'scikit-learn-1.5.2', file), new Date(iso), new Date(iso));
touch('sklearn/__init__.py', '2024-09-01T00:00:00Z');
touch('PKG-INFO', '2024-09-11T12:30:00Z');
writeFileSync(join(CLONES, 'a-file'), '');

function failure(overrides: string[]): { code: string; message: string } {
  try {
    applySourceOverrides(MANIFEST, overrides, CLONES);
  } catch (error) {
    if (isRepocodError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a RepocodError');
}

describe('applySourceOverrides', () => {
  it('takes the named repository from the local clone, keeping its base commit and its url as upstream', () => {
    const result = applySourceOverrides(MANIFEST, ['flask=flask'], CLONES);
    expect(result.repositories[0]).toEqual({
      ...MANIFEST.repositories[0],
      url: null,
      source: join(CLONES, 'flask'),
      baseCommit: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
      upstream: 'https://github.com/pallets/flask.git',
    });
    expect(result.repositories[1]).toBe(MANIFEST.repositories[1]);
    expect(MANIFEST.repositories[0]?.url).toBe('https://github.com/pallets/flask.git');
    expect(result.file).toBe(MANIFEST.file);
  });

  it(
    'takes a folder that is not a git repository (an sdist) as a stand-in for the commit, dated by its newest ' +
      'file',
    () => {
      const result = applySourceOverrides(MANIFEST, ['scikit-learn=scikit-learn-1.5.2'], CLONES);
      expect(result.repositories[1]).toEqual({
        ...MANIFEST.repositories[1],
        url: null,
        source: join(CLONES, 'scikit-learn-1.5.2'),
        baseCommit: null,
        standInFor: 'c71340fd74280408b84be7ca008e1205e10c7830',
        standInReleasedAt: '2024-09-11T12:30:00Z',
        excludeNewer: '2024-09-11T12:30:00Z',
        upstream: 'https://github.com/scikit-learn/scikit-learn.git',
      });
    },
  );

  it('accepts absolute paths, and paths holding "=" after the name', () => {
    const absolute = applySourceOverrides(MANIFEST, [`flask=${join(CLONES, 'flask')}`], '/');
    expect(absolute.repositories[0]?.source).toBe(join(CLONES, 'flask'));
    const equals = applySourceOverrides(MANIFEST, ['flask=with=equals'], CLONES);
    expect(equals.repositories[0]?.source).toBe(join(CLONES, 'with=equals'));
  });

  it('returns the manifest itself when there is nothing to override', () => {
    expect(applySourceOverrides(MANIFEST, [], CLONES)).toBe(MANIFEST);
  });

  it("names an unknown repository, lists the known ones, and gives the command that writes one's own entry", () => {
    const error = failure(['flsk=flask']);
    expect(error.code).toBe('usage');
    expect(error.message.split('\n')[0]).toBe(
      '--source flsk=flask: no repository named "flsk" in datasets/repocod/manifest.yaml (did you mean "flask"?) ' +
        '(known: flask, scikit-learn).',
    );
    // No hand-written starter recipe (a guessed `.[test]` extra was wrong for click and attrs): the command that
    // reads the recipe from the project's files.
    expect(error.message).toContain(
      `  repocod manifest add flsk --source ${join(CLONES, 'flask')} --manifest my-manifest.yaml`,
    );
    expect(error.message).not.toContain('.[test]');
  });

  it('refuses a malformed override', () => {
    for (const bad of ['flask', '=flask', 'flask=', ' = ']) {
      const error = failure([bad]);
      expect(error.code).toBe('usage');
      expect(error.message).toBe(
        `--source ${JSON.stringify(bad)} must look like NAME=PATH, e.g. --source flask=../clones/flask`,
      );
    }
  });

  it('refuses a path that is missing or not a folder, and a repository given twice', () => {
    expect(failure(['flask=nowhere'])).toEqual({
      code: 'path-not-found',
      message: `--source flask=nowhere: ${join(CLONES, 'nowhere')} does not exist (give the folder of a local clone)`,
    });
    expect(failure(['flask=a-file']).code).toBe('not-a-directory');
    expect(failure(['flask=flask', 'flask=with=equals']).message).toBe(
      `--source flask=with=equals: "flask" is already taken from ${join(CLONES, 'flask')}; give one --source per ` +
        `repository`,
    );
  });
});
