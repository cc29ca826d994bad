import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { RepocodError } from '@repocod/core';
import { releaseFiles, writeRelease } from '../release-folder.js';
import type { ReleaseRow } from '../release-table.js';

/** Shared by the tests of this package only: a small real release folder and a way to compare folders. */

export function fixtureRow(id: string, version: string): ReleaseRow {
  return {
    instance_id: id,
    version,
    gold_patches: {
      code: `--- a/demo.py\n+++ b/demo.py\n@@ -1 +1 @@\n-pass\n+return ${JSON.stringify(id)}\n`,
      test: '',
    },
    pre_patches: { code: '', test: '' },
    repo: 'demo/demo',
    base_commit: 'c0ffee',
    base_commit_timestamp: '2024-01-01T00:00:00+00:00',
    problem_statement: { code: `def ${id}():\n    """Say ${id}."""\n`, test: '' },
    environment_setup_commit: 'c0ffee',
    FAIL_TO_PASS: [`tests/test_demo.py::test_${id}`],
  };
}

/**
 * A release folder in the Hub's layout holding `versions` (each with rows of its own, the last one
 * the default), written with the package's own Parquet writer and card header. Returns the folder
 * and its files, relative to it, as writeRelease lists them.
 */
export function writeReleaseFixture(
  versions: readonly string[],
  folder = mkdtempSync(join(tmpdir(), 'repocod-hub-')),
): { folder: string; files: string[] } {
  for (const [index, version] of versions.entries()) {
    const rows = Array.from({ length: index + 2 }, (_, row) => fixtureRow(`task_${row}`, version));
    writeRelease(folder, version, rows, '# Demo release\n', [
      { name: 'validation.jsonl', content: `{"version":"${version}"}\n` },
    ]);
  }
  return { folder, files: releaseFiles(folder) };
}

/** Every file below `folder` with its bytes, by path relative to it, sorted: what "untouched" compares. */
export function folderContents(folder: string): Record<string, Buffer> {
  const contents: Record<string, Buffer> = {};
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else contents[relative(folder, path)] = readFileSync(path);
    }
  };
  walk(folder);
  return contents;
}

/** The RepocodError that `run` throws or rejects with; anything else fails the test. */
export async function failure(run: () => unknown): Promise<RepocodError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RepocodError) return error;
    throw error;
  }
  throw new Error('expected a RepocodError');
}
