import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from './git.js';
import { parseManifest } from './manifest.js';
import { recipeAtCheckout } from './recipe-at-checkout.js';
import { standInEntry } from './stand-in-source.js';
import { addCommit, makeDatedHistory } from './testing/dated-commits.js';

/** An entry of the history at `path` whose second variant starts at the commit `start`. */
function entryWith(path: string, start: string) {
  const text = [
    'repositories:',
    '  - name: lib',
    `    source: ${path}`,
    '    python: "3.11"',
    '    install: [{pip: [--editable, ".[test]"]}]',
    '    test_roots: [tests]',
    '    variants:',
    '      - from: 2025-01-01',
    '        why: the test extra became a group',
    '        install: [{pip: [pytest, --editable, .]}]',
    `      - from: ${start}`,
    '        why: requires-python rose to 3.12',
    '        python: "3.12"',
  ].join('\n');
  const [entry] = parseManifest(`${text}\n`, 'lib.yaml').repositories;
  if (entry === undefined) throw new Error('no entry');
  return entry;
}

describe('recipeAtCheckout', () => {
  it('reads the start in the history: its descendants take it, a side branch and an older commit not', async () => {
    const history = await makeDatedHistory([
      { files: { 'pyproject.toml': '[project]\nname = "lib"\n' }, committedAt: '2024-06-01T00:00:00Z' },
      { files: { 'a.py': 'a = 1\n' }, committedAt: '2025-03-01T00:00:00Z' },
      {
        files: { 'pyproject.toml': '[project]\nname = "lib"\nrequires-python = ">=3.12"\n' },
        committedAt: '2025-09-01T00:00:00Z',
      },
      { files: { 'b.py': 'b = 1\n' }, committedAt: '2025-10-01T00:00:00Z' },
    ]);
    const [old, middle, start, after] = history.commits as [string, string, string, string];
    // A side branch from the middle, committed after the start but without it.
    await git(history.path, ['checkout', '--quiet', '-b', 'side', middle]);
    const side = await addCommit(history.path, { files: { 'c.py': 'c = 1\n' }, committedAt: '2025-11-01T00:00:00Z' });
    const entry = entryWith(history.path, start);
    const at = async (commit: string, commitTimestamp: string) =>
      recipeAtCheckout(entry, { name: 'lib', path: history.path, baseCommit: commit, commitTimestamp });

    expect((await at(old, '2024-06-01T00:00:00Z')).chosen).toBeNull();
    expect((await at(middle, '2025-03-01T00:00:00Z')).chosen?.index).toBe(0);
    expect((await at(start, '2025-09-01T00:00:00Z')).entry.python).toBe('3.12');
    const descendant = await at(after, '2025-10-01T00:00:00Z');
    expect(descendant.chosen?.index).toBe(1);
    expect(descendant.entry).toMatchObject({ python: '3.12', install: [{ pip: ['--editable', '.[test]'] }] });
    const onSide = await at(side, '2025-11-01T00:00:00Z');
    expect(onSide.chosen?.index).toBe(0);
    expect(onSide.entry.python).toBe('3.11');
  });

  it('takes a start commit the clone lacks as not reached', async () => {
    const history = await makeDatedHistory([{ files: { 'a.py': 'a = 1\n' }, committedAt: '2025-06-01T00:00:00Z' }]);
    const [only] = history.commits as [string];
    const entry = entryWith(history.path, 'd'.repeat(40));
    const choice = await recipeAtCheckout(entry, {
      name: 'lib',
      path: history.path,
      baseCommit: only,
      commitTimestamp: '2025-06-01T00:00:00Z',
    });
    expect(choice.chosen?.index).toBe(0);
  });

  it("chooses a stand-in's variant by its release date, not by its snapshot commit's fixed date", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'repocod-stand-in-era-'));
    writeFileSync(join(folder, 'PKG-INFO'), 'Metadata-Version: 2.1\nName: lib\nVersion: 2.0\n');
    writeFileSync(join(folder, 'lib.py'), 'a = 1\n');
    const released = new Date('2026-02-01T12:00:00Z');
    for (const file of ['PKG-INFO', 'lib.py']) utimesSync(join(folder, file), released, released);
    const text = [
      'repositories:',
      '  - name: lib',
      '    url: https://example.invalid/lib.git',
      `    base_commit: ${'a'.repeat(40)}`,
      '    python: "3.11"',
      '    install: [{pip: [--editable, ".[test]"]}]',
      '    test_roots: [tests]',
      '    variants:',
      '      - from: 2025-06-01',
      '        why: the test extra became a group',
      '        install: [{pip: [pytest, --editable, .]}]',
    ].join('\n');
    const [entry] = parseManifest(`${text}\n`, 'lib.yaml').repositories;
    if (entry === undefined || entry.baseCommit === null) throw new Error('no entry');
    const standIn = standInEntry({ ...entry, baseCommit: entry.baseCommit }, folder);
    // The runner's snapshot of a folder is committed at its fixed date, 2024-01-01.
    const snapshot = { name: 'lib', path: folder, baseCommit: 'b'.repeat(40), commitTimestamp: '2024-01-01T00:00:00Z' };
    expect(standIn).toMatchObject({ standInReleasedAt: '2026-02-01T12:00:00Z' });
    expect((await recipeAtCheckout(standIn, snapshot)).chosen?.index).toBe(0);
    // The same entry from a clone dated by its commit: the 2024 commit keeps the entry's own recipe.
    expect((await recipeAtCheckout(entry, snapshot)).chosen).toBeNull();
  });
});
