import { describe, expect, it } from 'vitest';
import { parseBlamePorcelain, unquoteGitPath } from './blame-porcelain.js';
import { gitOutput } from './git.js';
import { makeDatedHistory } from './testing/dated-history.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

function details(commit: string, time: number, extra: readonly string[]): string[] {
  return [
    'author A',
    'author-mail <a@localhost>',
    `author-time ${time}`,
    'author-tz +0200',
    'committer C',
    'committer-mail <c@localhost>',
    `committer-time ${time + 60}`,
    'committer-tz +0000',
    `summary the commit ${commit.slice(0, 4)}`,
    ...extra,
  ];
}

/** Three lines: two of OLD (a boundary commit, its details given once), one of NEW in between, moved from y.py. */
const PORCELAIN = [
  `${OLD} 1 1 1`,
  ...details(OLD, 1000, ['boundary', 'filename pkg/x.py']),
  '\tdef f(a):',
  `${NEW} 7 2 1`,
  ...details(NEW, 2000, [`previous ${OLD} pkg/y.py`, 'filename pkg/y.py']),
  '\t    return\ta  # tab kept',
  `${OLD} 3 3 1`,
  '\t',
  '',
].join('\n');

describe('parseBlamePorcelain', () => {
  it("reads --porcelain, where a commit's details come with its first line only", () => {
    expect(parseBlamePorcelain(PORCELAIN)).toEqual([
      {
        line: 1,
        commit: OLD,
        authorTime: 1000,
        committerTime: 1060,
        originalFile: 'pkg/x.py',
        originalLine: 1,
        boundary: true,
        text: 'def f(a):',
      },
      {
        line: 2,
        commit: NEW,
        authorTime: 2000,
        committerTime: 2060,
        originalFile: 'pkg/y.py',
        originalLine: 7,
        boundary: false,
        text: '    return\ta  # tab kept',
      },
      expect.objectContaining({ line: 3, commit: OLD, originalFile: 'pkg/x.py', boundary: true, text: '' }),
    ]);
  });

  it('reads --line-porcelain, every line with its details, the same way', () => {
    const linePorcelain = [
      `${OLD} 4 10 2`,
      ...details(OLD, 1000, ['filename pkg/x.py']),
      '\tfirst',
      `${OLD} 5 11`,
      ...details(OLD, 1000, ['filename pkg/x.py']),
      '\tsecond',
    ].join('\n');
    expect(
      parseBlamePorcelain(linePorcelain).map(({ line, originalLine, text }) => [line, originalLine, text]),
    ).toEqual([
      [10, 4, 'first'],
      [11, 5, 'second'],
    ]);
  });

  it('gives a last line whose content was trimmed away the text ``, and reads SHA-256 names', () => {
    const sha256 = 'c'.repeat(64);
    const trimmed = [`${sha256} 1 1 1`, ...details(sha256, 5, ['filename a.py'])].join('\n');
    expect(parseBlamePorcelain(trimmed)).toEqual([expect.objectContaining({ line: 1, commit: sha256, text: '' })]);
    expect(parseBlamePorcelain('')).toEqual([]);
  });

  it('names the output line of anything out of shape', () => {
    expect(() => parseBlamePorcelain('\tcontent first')).toThrow(/line 1: a content line .* before any header/);
    expect(() => parseBlamePorcelain('not a header')).toThrow(/line 1: "not a header" where a header/);
    expect(() => parseBlamePorcelain(`${OLD} 1 1 1\nfilename a.py\n\tx`)).toThrow(
      /line 3: commit a{40} has no author-time/,
    );
    expect(() => parseBlamePorcelain(`${OLD} 1 1 1\nauthor-time soon\n`)).toThrow(/line 2: the time "soon"/);
    expect(() => parseBlamePorcelain('\tx')).toThrow(expect.objectContaining({ code: 'parse-error' }));
  });

  it('reads what git writes: --porcelain and --line-porcelain give the same lines, with the dates given', async () => {
    const history = await makeDatedHistory();
    const first = await history.commit('one', '2020-01-02T03:04:05Z', { 'mod.py': 'a = 1\nb = 2\n\n' });
    const second = await history.commit(
      'two',
      '2021-06-07T08:09:10Z',
      { 'mod.py': 'a = 1\nb = 3\n\n' },
      '2021-06-08T00:00:00Z',
    );
    const blame = (format: string) => gitOutput(history.path, ['blame', format, 'HEAD', '--', 'mod.py']);
    const lines = parseBlamePorcelain(await blame('--porcelain'));
    expect(parseBlamePorcelain(await blame('--line-porcelain'))).toEqual(lines);
    expect(lines.map(({ line, commit, text, boundary }) => [line, commit, text, boundary])).toEqual([
      [1, first, 'a = 1', true],
      [2, second, 'b = 3', false],
      [3, first, '', true],
    ]);
    expect(lines[1]).toMatchObject({
      authorTime: Date.parse('2021-06-07T08:09:10Z') / 1000,
      committerTime: Date.parse('2021-06-08T00:00:00Z') / 1000,
      originalFile: 'mod.py',
    });
  });
});

describe('unquoteGitPath', () => {
  it('leaves a plain path alone and undoes C quoting, octal UTF-8 bytes included', () => {
    expect(unquoteGitPath('pkg/mod.py')).toBe('pkg/mod.py');
    expect(unquoteGitPath('"pkg/caf\\303\\251.py"')).toBe('pkg/café.py');
    expect(unquoteGitPath('"a\\tb\\"c\\\\d.py"')).toBe('a\tb"c\\d.py');
  });

  it('reads the name git quotes in a real blame of a file with a tab and an accent in its name', async () => {
    const history = await makeDatedHistory();
    const name = 'caf\u00e9\tx.py';
    await history.commit('one', '2020-01-02T03:04:05Z', { [name]: 'a = 1\n' });
    const output = await gitOutput(history.path, ['blame', '--porcelain', 'HEAD', '--', name]);
    expect(output).toContain('filename "caf');
    expect(parseBlamePorcelain(output)[0]?.originalFile).toBe(name);
  });
});
