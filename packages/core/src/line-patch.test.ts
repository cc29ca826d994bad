import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  invertReplacements,
  lineEnding,
  lineReplacementPatch,
  linesPatch,
  replaceAllLines,
  replaceLines,
  splitLinesKeepingEnds,
} from './line-patch.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Applies the patch with the real `git apply` in a fresh repository and returns the file's bytes. */
function gitApply(original: string, patch: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'line-patch-'));
  folders.push(folder);
  execFileSync('git', ['init', '-q'], { cwd: folder });
  writeFileSync(join(folder, 'm.py'), original);
  writeFileSync(join(folder, 'change.diff'), patch);
  execFileSync('git', ['apply', '--check', 'change.diff'], { cwd: folder });
  execFileSync('git', ['apply', 'change.diff'], { cwd: folder });
  return readFileSync(join(folder, 'm.py'), 'utf8');
}

const SOURCE = [
  'def f():',
  '    """Doc."""',
  '    a = 1',
  '    b = 2',
  '    return a + b',
  '',
  '',
  'def g():',
  '    return 3',
  '',
].join('\n');

describe('splitLinesKeepingEnds', () => {
  it('keeps every ending, so that joining gives the text back', () => {
    for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\nb', '\n\n'])
      expect(splitLinesKeepingEnds(text).join('')).toBe(text);
    expect(splitLinesKeepingEnds('a\r\nb').map(lineEnding)).toEqual(['\r\n', '']);
  });
});

describe('lineReplacementPatch', () => {
  it('replaces a range in the middle, as git apply reads it', () => {
    const replacement = { start: 3, end: 5, lines: ['    raise AssertionError("x")\n'] };
    const patch = lineReplacementPatch('m.py', SOURCE, replacement);
    expect(patch).toContain('@@ -1,8 +1,6 @@');
    expect(gitApply(SOURCE, patch)).toBe(replaceLines(SOURCE, replacement));
    expect(replaceLines(SOURCE, replacement)).toContain('"""Doc."""\n    raise AssertionError("x")\n\n\ndef g');
  });

  it('patches CRLF files byte for byte', () => {
    const crlf = SOURCE.replaceAll('\n', '\r\n');
    const replacement = { start: 3, end: 5, lines: ['    pass\r\n'] };
    expect(gitApply(crlf, lineReplacementPatch('m.py', crlf, replacement))).toBe(replaceLines(crlf, replacement));
  });

  it('handles a last line without a newline, at the end of the file', () => {
    const source = 'def g():\n    """Doc."""\n    return 3';
    const replacement = { start: 3, end: 3, lines: ['    raise AssertionError("x")'] };
    const patch = lineReplacementPatch('m.py', source, replacement);
    expect(patch).toContain('\\ No newline at end of file');
    expect(gitApply(source, patch)).toBe('def g():\n    """Doc."""\n    raise AssertionError("x")');
  });

  it('inserts when the range is empty', () => {
    const replacement = { start: 3, end: 2, lines: ['    pass\n'] };
    expect(gitApply(SOURCE, lineReplacementPatch('m.py', SOURCE, replacement))).toBe(replaceLines(SOURCE, replacement));
  });

  it('refuses a range outside the file', () => {
    expect(() => lineReplacementPatch('m.py', SOURCE, { start: 9, end: 12, lines: [] })).toThrow(
      /m\.py: cannot replace lines 9\.\.12 of a file of 9 lines/,
    );
  });
});

describe('linesPatch, replaceAllLines and invertReplacements', () => {
  const text = Array.from({ length: 30 }, (_, index) => `line ${index + 1}\n`).join('');
  const edits = [
    { start: 3, end: 4, lines: [] },
    { start: 8, end: 8, lines: ['eight\n', 'more\n'] },
    { start: 25, end: 24, lines: ['inserted\n'] },
  ];

  it('writes one patch for several ranges that git applies, merging hunks whose contexts meet', () => {
    const patch = linesPatch('m.py', text, edits);
    expect(patch.match(/^@@/gm)).toHaveLength(2);
    expect(gitApply(text, patch)).toBe(replaceAllLines(text, edits));
  });

  it('inverts the replacements: the reverse patch gives the original bytes back', () => {
    const changed = replaceAllLines(text, edits);
    const back = invertReplacements(text, edits);
    expect(replaceAllLines(changed, back)).toBe(text);
    expect(gitApply(changed, linesPatch('m.py', changed, back))).toBe(text);
  });

  it('refuses overlapping ranges', () => {
    expect(() =>
      linesPatch('m.py', text, [
        { start: 3, end: 5, lines: [] },
        { start: 5, end: 6, lines: [] },
      ]),
    ).toThrow(/overlap/);
  });
});
