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
    for (const folder of ['flat', 'src/inner', 'tests', 'docs', 'notapackage']) mkdirSync(join(project, folder), { recursive: true });
    for (const file of ['flat/__init__.py', 'src/inner/__init__.py', 'tests/__init__.py', 'docs/__init__.py']) writeFileSync(join(project, file), '');
    expect(topLevelPackages(project)).toEqual(['flat', 'inner']);
    expect(topLevelPackages(join(PROJECT_ROOT, 'datasets/demo'))).toEqual(['inventory']);
  });

  it('stops with what to do when the package cannot be imported in a worktree (an unbuilt extension)', { timeout: 300_000 }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'repocod-compiled-'));
    mkdirSync(join(project, 'fastpkg'));
    mkdirSync(join(project, 'tests'));
    // Stands for a compiled project whose extension exists only where it was built.
    writeFileSync(join(project, 'fastpkg/__init__.py'), 'from ._speedups import add\n');
    writeFileSync(join(project, 'tests/test_add.py'), 'from fastpkg import add\n\ndef test_add():\n    assert add(1, 2) == 3\n');
    const entry = { ...demoEntry(), name: 'compiled', source: project } as ManifestEntry;
    const error: unknown = await prepareRepository(entry, runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-state-'))), { workers: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(isRepocodError(error) && error.code).toBe('environment-failed');
    expect(String(error)).toMatch(/compiled: its package\(s\) fastpkg cannot be imported in a worktree .*_speedups/s);
  });
});
