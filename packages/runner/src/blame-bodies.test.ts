import type { LineSpan } from '@repocod/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BlamedFunction, blameFunctionBodies } from './blame-bodies.js';
import { parseBlamePorcelain } from './blame-porcelain.js';
import type { BodyHistory } from './body-history.js';
import { changedSince } from './changed-since.js';
import { git, gitOutput } from './git.js';
import { type DatedHistory, makeDatedHistory } from './testing/dated-history.js';

const CUTOFF = '2023-01-01T00:00:00Z';

const UNTOUCHED = `def untouched(values):
    """Sum the values."""
    total = 0
    for value in values:
        total += value
    return total
`;
const CHANGED = (comparison: string) => `def changed(values):
    """Largest value."""
    best = None
    for value in values:
        if best is None or value ${comparison} best:
            best = value
    return best
`;
const MOVED_WITHIN = `def moved_within(text):
    """Words of a text."""
    words = text.split()
    return [word.strip('.,;') for word in words]
`;
const DOCUMENTED = (doc: string) => `def documented(name):
    """${doc}"""
    greeting = 'Hello, ' + name
    return greeting.upper() + '!'
`;
const SPACED = (extra: string) => `def spaced(items):
    """Pairs of items."""
    pairs = list(zip(items, items[1:]))
${extra}    return [left + right for left, right in pairs]
`;
const OUTER = `def outer(n):
    """Outer."""
    def inner(m):
        return m * n + len(str(m))
    return inner(n) + inner(n + 1)
`;
const MOVED_AWAY = `def moved_away(path):
    """The suffix of a path."""
    name = path.rsplit('/', 1)[-1]
    return name.rsplit('.', 1)[-1] if '.' in name else ''
`;
const COPIED = `def copied(mapping):
    """Keys sorted by value."""
    ordered = sorted(mapping.items(), key=lambda item: item[1])
    return [key for key, _ in ordered]
`;
const DOC_ONLY = 'def doc_only():\n    """Nothing but a docstring."""\n';

function module(...functions: readonly string[]): string {
  return functions.join('\n\n');
}

/**
 * The spans extraction would give a function of the fixtures (one-line signature, a one-line docstring or none, the
 * body through its last non-blank line more indented than the `def`), found by its name in the file's text.
 */
function located(file: string, text: string, name: string): BlamedFunction & { name: string } {
  const lines = text.split('\n');
  const def = lines.findIndex((line) => line.trimStart().startsWith(`def ${name}(`));
  if (def === -1) throw new Error(`no def ${name} in ${file}`);
  const indent = (lines[def] as string).search(/\S/);
  let end = def + 1;
  for (let index = def + 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === '') continue;
    if (line.search(/\S/) <= indent) break;
    end = index + 1;
  }
  const line = def + 1;
  const docstring: LineSpan | null = lines[def + 1]?.trim().startsWith('"""')
    ? { start: line + 1, end: line + 1 }
    : null;
  return {
    name,
    file,
    signatureSpan: { start: line, end: line },
    docstringSpan: docstring,
    bodySpan: { start: line + 1, end },
  };
}

let history: DatedHistory;
const commits: Record<string, string> = {};
let bodies: Map<string, BodyHistory | null>;

beforeAll(async () => {
  history = await makeDatedHistory();
  commits.written = await history.commit('written', '2022-01-01T00:00:00Z', {
    'mod.py': module(
      UNTOUCHED,
      CHANGED('>'),
      MOVED_WITHIN,
      'def reindented(a, b):\n    """Weighted mean."""\n    weight=a+b\n    return (a*2+b)/weight\n',
      DOCUMENTED('Greets.'),
      SPACED(''),
      OUTER,
      DOC_ONLY,
    ),
    'other.py': module(MOVED_AWAY, 'def stays():\n    return 1\n'),
    'orig.py': COPIED,
  });
  const edit = (date: string, message: string, files: Record<string, string>) =>
    history.commit(message, date, files).then((commit) => {
      commits[message] = commit;
    });
  const reindented =
    'class Stats:\n    def reindented(a, b):\n        """Weighted mean."""\n' +
    '        weight = a + b\n        return (a * 2 + b) / weight\n';
  const modAt = (step: number) =>
    module(
      UNTOUCHED,
      CHANGED(step >= 1 ? '>=' : '>'),
      ...(step >= 2 ? [] : [MOVED_WITHIN]),
      step >= 3
        ? reindented
        : 'def reindented(a, b):\n    """Weighted mean."""\n    weight=a+b\n    return (a*2+b)/weight\n',
      DOCUMENTED(step >= 4 ? 'Greets by name, loudly.' : 'Greets.'),
      SPACED(step >= 5 ? '\n    # one pair per neighbour\n' : ''),
      OUTER,
      DOC_ONLY,
      ...(step >= 2 ? [MOVED_WITHIN] : []),
    );
  await edit('2023-03-01T00:00:00Z', 'changed', { 'mod.py': modAt(1) });
  await edit('2023-04-01T00:00:00Z', 'moved within', { 'mod.py': modAt(2) });
  await edit('2023-05-01T00:00:00Z', 'whitespace', { 'mod.py': modAt(3) });
  await edit('2023-06-01T00:00:00Z', 'docstring', { 'mod.py': modAt(4) });
  await edit('2023-07-01T00:00:00Z', 'blank and comment', { 'mod.py': modAt(5) });
  await edit('2023-08-01T00:00:00Z', 'moved away', {
    'other.py': 'def stays():\n    return 1\n',
    'new.py': MOVED_AWAY,
  });
  await edit('2023-09-01T00:00:00Z', 'copied', { 'copy.py': `import os\n\n\n${COPIED}` });
  const head = await git(history.path, ['rev-parse', 'HEAD']);
  const files: Record<string, string> = {};
  for (const file of ['mod.py', 'new.py', 'copy.py'])
    files[file] = await gitOutput(history.path, ['show', `${head}:${file}`]);
  const mod = files['mod.py'] as string;
  const functions = [
    ...['untouched', 'changed', 'moved_within', 'reindented', 'documented', 'spaced', 'outer', 'inner', 'doc_only'].map(
      (name) => located('mod.py', mod, name),
    ),
    located('new.py', files['new.py'] as string, 'moved_away'),
    located('copy.py', files['copy.py'] as string, 'copied'),
  ];
  const found = await blameFunctionBodies(history.path, head, functions);
  bodies = new Map(functions.map((fn) => [fn.name, found.get(fn) ?? null]));
});

function body(name: string): BodyHistory {
  const found = bodies.get(name);
  if (found === undefined || found === null) throw new Error(`no history for ${name}`);
  return found;
}

describe('blameFunctionBodies', () => {
  it('dates a body written before the cutoff and never touched by the commit that wrote it', () => {
    expect(body('untouched')).toEqual({
      bodyCommit: commits.written,
      bodyChangedAt: '2022-01-01T00:00:00Z',
      bodyCommittedAt: '2022-01-01T00:00:00Z',
      bodyLines: 4,
      codeLines: 4,
      boundary: true,
      sourceFile: 'mod.py',
      sourceLine: 3,
      exact: true,
    });
    expect(changedSince(body('untouched'), CUTOFF)).toBe(false);
  });

  it('dates a body changed after the cutoff by the change, though one line of five changed', () => {
    expect(body('changed')).toMatchObject({ bodyCommit: commits.changed, bodyChangedAt: '2023-03-01T00:00:00Z' });
    expect(changedSince(body('changed'), CUTOFF)).toBe(true);
  });

  it('follows a function moved within its file (-M): the old date stays', () => {
    expect(body('moved_within')).toMatchObject({ bodyCommit: commits.written, sourceFile: 'mod.py' });
  });

  it('follows a function moved to a new file in the commit that removed it from the old one (-C)', () => {
    expect(body('moved_away')).toMatchObject({
      bodyCommit: commits.written,
      bodyChangedAt: '2022-01-01T00:00:00Z',
      sourceFile: 'other.py',
      sourceLine: 3,
    });
  });

  it('keeps the old date through a change of whitespace alone: re-indented into a class, spaced operators', () => {
    expect(body('reindented')).toMatchObject({ bodyCommit: commits.written, bodyLines: 2 });
  });

  it('does not count a docstring change: the body is the solution, the lines after the docstring', () => {
    expect(body('documented')).toMatchObject({ bodyCommit: commits.written, bodyLines: 2 });
  });

  it('does not count a blank line or a comment added to the body, though they are body lines', () => {
    expect(body('spaced')).toMatchObject({ bodyCommit: commits.written, bodyLines: 4, codeLines: 2 });
  });

  it('blames overlapping bodies of nested functions in one run, and has no history for a docstring alone', () => {
    expect(body('outer')).toMatchObject({ bodyCommit: commits.written, bodyLines: 3 });
    expect(body('inner')).toMatchObject({ bodyCommit: commits.written, bodyLines: 1 });
    expect(bodies.get('doc_only')).toBeNull();
  });

  it('dates a copy whose original stayed unchanged at the copy: -C reads only files the commit changed', async () => {
    expect(body('copied')).toMatchObject({ bodyCommit: commits.copied, bodyChangedAt: '2023-09-01T00:00:00Z' });
    // What the `-C -C` it does not use would give: the original's commit, from the file the copy came from.
    const copy = located('copy.py', await gitOutput(history.path, ['show', 'HEAD:copy.py']), 'copied');
    const deeper = await gitOutput(history.path, [
      'blame',
      '--porcelain',
      '-w',
      '-M',
      '-C',
      '-C',
      '-L',
      '6,7',
      'HEAD',
      '--',
      'copy.py',
    ]);
    expect(copy.bodySpan.end).toBe(7);
    expect(parseBlamePorcelain(deeper).map((line) => [line.commit, line.originalFile])).toEqual([
      [commits.written, 'orig.py'],
      [commits.written, 'orig.py'],
    ]);
  });

  it("answers a file that is not there at the commit with git's error", async () => {
    const missing = { ...located('mod.py', module(UNTOUCHED), 'untouched'), file: 'gone.py' };
    await expect(blameFunctionBodies(history.path, commits.written as string, [missing])).rejects.toMatchObject({
      code: 'git-failed',
    });
  });
});
