import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { loadManifest } from './manifest.js';
import type { ManifestEntry } from './manifest.js';
import { prepareRepository, runnerPaths } from './prepare-repository.js';
import { topLevelPackages } from './worktree-imports.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);

function demoEntry(): ManifestEntry {
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  return entry;
}

describe('worktree imports', () => {
  it('finds the top-level packages of flat and src layouts, not tests or docs', () => {
    const project = mkdtempSync(join(tmpdir(), 'repocod-layout-'));
    for (const folder of ['flat', 'src/inner', 'tests', 'docs', 'notapackage'])
      mkdirSync(join(project, folder), { recursive: true });
    for (const file of ['flat/__init__.py', 'src/inner/__init__.py', 'tests/__init__.py', 'docs/__init__.py'])
      writeFileSync(join(project, file), '');
    expect(topLevelPackages(project)).toEqual(['flat', 'inner']);
    expect(topLevelPackages(join(PROJECT_ROOT, 'datasets/demo'))).toEqual(['inventory']);
  });

  it('stops with what to do when the package cannot be imported in a worktree (an unbuilt extension)', {
    timeout: 300_000,
  }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'repocod-compiled-'));
    mkdirSync(join(project, 'fastpkg'));
    mkdirSync(join(project, 'tests'));
    // Stands for a compiled project whose extension exists only where it was built.
    writeFileSync(join(project, 'fastpkg/__init__.py'), 'from ._speedups import add\n');
    writeFileSync(
      join(project, 'tests/test_add.py'),
      'from fastpkg import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    );
    const entry = { ...demoEntry(), name: 'compiled', source: project } as ManifestEntry;
    const error: unknown = await prepareRepository(
      entry,
      runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-state-'))),
      { workers: 1 },
    ).catch((caught: unknown) => caught);
    expect(isRepocodError(error) && error.code).toBe('environment-failed');
    expect(String(error)).toMatch(/compiled: its package\(s\) fastpkg cannot be imported in a worktree .*_speedups/s);
  });

  it('imports only the packages import_check names, and refuses a name the project does not have', {
    timeout: 300_000,
  }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'repocod-devtools-'));
    for (const folder of ['mypkg', 'codegen', 'tests']) mkdirSync(join(project, folder));
    writeFileSync(join(project, 'mypkg/__init__.py'), 'VALUE = 1\n');
    // Development tooling beside the package, needing what the environment does not install (plotly's codegen).
    writeFileSync(join(project, 'codegen/__init__.py'), 'import inflect_not_installed\n');
    writeFileSync(
      join(project, 'tests/test_value.py'),
      'from mypkg import VALUE\n\ndef test_value():\n    assert VALUE == 1\n',
    );
    const entry = { ...demoEntry(), name: 'devtools', source: project } as ManifestEntry;
    // One state folder: the environment is made once and reused (import_check is not part of its recipe).
    const paths = runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-state-')));
    const prepare = (changed: Partial<ManifestEntry>): Promise<unknown> =>
      prepareRepository({ ...entry, ...changed } as ManifestEntry, paths, { workers: 1 }).then(
        () => null,
        (caught: unknown) => caught,
      );
    const unchecked = await prepare({});
    expect(isRepocodError(unchecked) && unchecked.code).toBe('environment-failed');
    expect(String(unchecked)).toMatch(
      /its package\(s\) codegen, mypkg cannot be imported .*inflect_not_installed.*import_check/s,
    );
    expect(await prepare({ importCheck: ['mypkg'] })).toBeNull();
    const unknown = await prepare({ importCheck: ['mypkg', 'nosuch'] });
    expect(isRepocodError(unknown) && unknown.code).toBe('config-invalid');
    expect(String(unknown)).toMatch(
      /import_check names nosuch, which the project folder does not have as a package \(its packages: codegen, mypkg\)/,
    );
  });
});
