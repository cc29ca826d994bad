import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_BLAME_ARGS, type BlamedFunction, blameFunctionBodies } from './blame-bodies.js';
import type { BodyHistory } from './body-history.js';
import { git } from './git.js';
import { type DatedHistory, makeDatedHistory } from './testing/dated-history.js';

/*
 * A history like astropy's in its size-limited mirror: the `-C` blame of a module must read the blob of another file
 * changed in the same commit, which the clone lacks (astropy's was a removed IERS table; here it is the old helpers.py,
 * the file -C would find the moved function in).
 *
 *   2022-01-01 root: mod.py { kept, edited }, helpers.py { moved, stays }
 *   2023-03-01 moved() moved from helpers.py (which keeps stays) into mod.py; added() written in mod.py
 *   2023-06-01 edited()'s body changed, in mod.py alone
 * then the root's blob of helpers.py deleted from the object store.
 */
const KEPT = 'def kept(values):\n    """Sum."""\n    total = sum(values)\n    return total * 2\n';
const EDITED = (factor: number) =>
  `def edited(values):\n    """Scaled."""\n    scaled = [value * ${factor} for value in values]\n    return scaled\n`;
const MOVED = `def moved(text):
    """Words."""
    words = [word for word in text.split() if word]
    cleaned = [word.strip(".,;:") for word in words]
    return [word.lower() for word in cleaned if word.isalpha()]
`;
const ADDED = 'def added(n):\n    """Squares."""\n    squares = [i * i for i in range(n)]\n    return sum(squares)\n';
const STAYS = 'def stays():\n    """Stays."""\n    return 1\n';

/** The spans of a fixture function (a one-line signature and docstring, the body to the next blank line). */
function located(file: string, text: string, name: string): BlamedFunction & { name: string } {
  const lines = text.split('\n');
  const line = lines.findIndex((row) => row.startsWith(`def ${name}(`)) + 1;
  const end = lines.findIndex((row, index) => index > line && row.trim() === '');
  return {
    name,
    file,
    signatureSpan: { start: line, end: line },
    docstringSpan: { start: line + 1, end: line + 1 },
    bodySpan: { start: line + 2, end: end === -1 ? lines.length : end },
  };
}

let history: DatedHistory;
const commits: Record<string, string> = {};
let bodies: Map<string, BodyHistory | null>;
let functions: (BlamedFunction & { name: string })[];

beforeAll(async () => {
  history = await makeDatedHistory();
  commits.root = await history.commit('root', '2022-01-01T00:00:00Z', {
    'mod.py': [KEPT, EDITED(2)].join('\n\n'),
    'helpers.py': [MOVED, STAYS].join('\n\n'),
  });
  const helpers = await git(history.path, ['rev-parse', 'HEAD:helpers.py']);
  commits.moved = await history.commit('move', '2023-03-01T00:00:00Z', {
    'mod.py': [KEPT, EDITED(2), MOVED, ADDED].join('\n\n'),
    'helpers.py': STAYS,
  });
  const mod = [KEPT, EDITED(3), MOVED, ADDED].join('\n\n');
  commits.edited = await history.commit('edit', '2023-06-01T00:00:00Z', { 'mod.py': mod });
  unlinkSync(join(history.path, '.git/objects', helpers.slice(0, 2), helpers.slice(2)));
  functions = ['kept', 'edited', 'moved', 'added'].map((name) => located('mod.py', mod, name));
  const found = await blameFunctionBodies(history.path, commits.edited, functions);
  bodies = new Map(functions.map((fn) => [fn.name, found.get(fn) ?? null]));
});

function body(name: string): BodyHistory {
  const found = bodies.get(name);
  if (found === undefined || found === null) throw new Error(`no history for ${name}`);
  return found;
}

describe('blameFunctionBodies in a clone that lacks a blob -C reads', () => {
  it("is a clone where git blame -C of the bodies' lines itself fails", async () => {
    const lines = functions.flatMap((fn) => ['-L', `${fn.bodySpan.start},${fn.bodySpan.end}`]);
    const args = [...BODY_BLAME_ARGS, ...lines, commits.edited as string, '--', 'mod.py'];
    await expect(git(history.path, args)).rejects.toThrow(/Cannot read blob [0-9a-f]{40} for path helpers.py/);
  });

  it("keeps a date that is exact without -C: the root's, and a commit that changed no other Python file", () => {
    expect(body('kept')).toMatchObject({ bodyCommit: commits.root, exact: true });
    expect(body('edited')).toMatchObject({
      bodyCommit: commits.edited,
      bodyChangedAt: '2023-06-01T00:00:00Z',
      exact: true,
    });
  });

  it('marks a date as an upper bound when its commit changed another Python file -C could have copied from', () => {
    // moved() is 2022's code, which -C would have followed to helpers.py; added() is new, but cannot be told apart.
    expect(body('moved')).toMatchObject({ bodyCommit: commits.moved, exact: false });
    expect(body('added')).toMatchObject({ bodyCommit: commits.moved, exact: false });
  });
});

/*
 * A history like plotly.py's: a commit that moved the package to the root, renaming (with edits) two modules of the
 * same name and a large built file whose old blob the clone lacks. With two sources of one base name git's rename
 * detection compares every removed file with every added one, so following mod.py reads that blob, with -C or not.
 *
 *   2022-01-01 root: pkg/mod.py { old, fresh }, pkg/vendor/mod.py, pkg/bundle.js
 *   2023-01-01 pkg/ moved to the root, both files edited on the way
 *   2023-06-01 fresh()'s body changed
 * then the root's blob of pkg/bundle.js deleted. The cutoff is 2023-03-01: the range starts at the move.
 */
describe('blameFunctionBodies over a range, where following a rename reads a blob the clone lacks', () => {
  const OLD =
    'def old(a):\n    """Old."""\n    doubled = [value * 2 for value in a if value]\n    return sorted(doubled)\n';
  const FRESH = (step: string) =>
    `def fresh(a):\n    """Fresh."""\n    kept = [value for value in a if value ${step}]\n` +
    '    return list(reversed(kept))\n';
  const VENDORED = (edit: string) => `def vendored():\n    return [n for n in range(10)]\n${edit}`;
  const BUNDLE = (edit: string) =>
    `${Array.from({ length: 200 }, (_, n) => `var x${n} = ${n * 3};`).join('\n')}\n${edit}`;
  let moved: DatedHistory;
  const at: Record<string, string> = {};
  let mod: string;

  beforeAll(async () => {
    moved = await makeDatedHistory();
    at.root = await moved.commit('root', '2022-01-01T00:00:00Z', {
      'pkg/mod.py': [OLD, FRESH('> 0')].join('\n\n'),
      'pkg/vendor/mod.py': VENDORED(''),
      'pkg/bundle.js': BUNDLE(''),
    });
    const bundle = await git(moved.path, ['rev-parse', 'HEAD:pkg/bundle.js']);
    at.move = await moved.commit('move', '2023-01-01T00:00:00Z', {
      'pkg/mod.py': null,
      'pkg/bundle.js': null,
      'pkg/vendor/mod.py': null,
      'vendor/mod.py': VENDORED('# moved\n'),
      'mod.py': `import os\n\n\n${[OLD, FRESH('> 0')].join('\n\n')}`,
      'bundle.js': BUNDLE('// moved\n'),
    });
    mod = `import os\n\n\n${[OLD, FRESH('> 1')].join('\n\n')}`;
    at.edit = await moved.commit('edit', '2023-06-01T00:00:00Z', { 'mod.py': mod });
    unlinkSync(join(moved.path, '.git/objects', bundle.slice(0, 2), bundle.slice(2)));
  });

  it('cannot blame the whole history, with -C or without', async () => {
    for (const args of [BODY_BLAME_ARGS, BODY_BLAME_ARGS.filter((arg) => arg !== '-C')])
      await expect(git(moved.path, [...args, at.edit as string, '--', 'mod.py'])).rejects.toThrow(
        /unable to read|Cannot read blob/,
      );
  });

  it('dates a body changed after the cutoff exactly, and one older than the range as an upper bound', async () => {
    const [old, fresh] = ['old', 'fresh'].map((name) => located('mod.py', mod, name));
    if (old === undefined || fresh === undefined) throw new Error('no functions');
    const found = await blameFunctionBodies(moved.path, at.edit as string, [old, fresh], { since: at.move });
    expect(found.get(fresh)).toMatchObject({
      bodyCommit: at.edit,
      bodyChangedAt: '2023-06-01T00:00:00Z',
      exact: true,
    });
    expect(found.get(old)).toMatchObject({
      bodyCommit: at.move,
      boundary: true,
      exact: false,
    });
  });

  it('leaves a file undated, and says so, when no range is given', async () => {
    const undated: [string, number][] = [];
    const functions = ['old', 'fresh'].map((name) => located('mod.py', mod, name));
    const onUndated = (file: string, count: number) => undated.push([file, count]);
    const found = await blameFunctionBodies(moved.path, at.edit as string, functions, { onUndated });
    expect([...found.values()]).toEqual([null, null]);
    expect(undated).toEqual([['mod.py', 2]]);
  });
});
