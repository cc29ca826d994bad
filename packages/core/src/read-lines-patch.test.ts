import { describe, expect, it } from 'vitest';
import { linesPatch, replaceAllLines } from './line-patch.js';
import { applyLinesPatch, PatchMismatchError, readLinesPatch } from './read-lines-patch.js';

const TEXT = ['import pytest\n', '\n', '\n', 'def test_a():\n', '    assert 1\n', '\n', '\n', 'def test_b():\n'];
const FILE = [...TEXT, '    assert 2\n', '\n', '\n', 'def test_c():\n', '    assert 3'].join('');

describe('readLinesPatch', () => {
  it('reads back the replacements linesPatch wrote, byte for byte, a last line without a newline included', () => {
    const replacements = [
      { start: 4, end: 5, lines: [] },
      { start: 9, end: 9, lines: ['    pass\n'] },
      { start: 12, end: 13, lines: ['def test_c():\n', '    assert 4'] },
    ];
    const patch = linesPatch('tests/test_x.py', FILE, replacements);
    expect(patch).toContain('\\ No newline at end of file');
    const read = readLinesPatch(patch);
    expect([...read.keys()]).toEqual(['tests/test_x.py']);
    expect(replaceAllLines(FILE, read.get('tests/test_x.py') ?? [])).toBe(replaceAllLines(FILE, replacements));
    expect(applyLinesPatch(patch, () => FILE).get('tests/test_x.py')).toBe(replaceAllLines(FILE, replacements));
  });

  it('patches each file of a patch of several, with CRLF lines kept', () => {
    const crlf = 'def f():\r\n    return 1\r\n\r\ndef g():\r\n    return 2\r\n';
    const patch =
      linesPatch('a.py', crlf, [{ start: 2, end: 2, lines: ['    pass\r\n'] }]) +
      linesPatch('b.py', FILE, [{ start: 1, end: 1, lines: [] }]);
    const patched = applyLinesPatch(patch, (file) => (file === 'a.py' ? crlf : FILE));
    expect(patched.get('a.py')).toBe('def f():\r\n    pass\r\n\r\ndef g():\r\n    return 2\r\n');
    expect(patched.get('b.py')).toBe(FILE.slice('import pytest\n'.length));
  });

  it("refuses a patch whose lines are not the file's, naming the file and line", () => {
    const patch = linesPatch('tests/test_x.py', FILE, [{ start: 5, end: 5, lines: [] }]);
    const other = FILE.replace('    assert 1\n', '    assert 10\n');
    let error: unknown;
    try {
      applyLinesPatch(patch, () => other);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PatchMismatchError);
    expect(error).toMatchObject({ file: 'tests/test_x.py', line: 5 });
    expect(String((error as Error).message)).toContain('tests/test_x.py:5: the patch does not apply');
  });

  it('reads lines that look like file headers inside a hunk as the lines they are', () => {
    const text = 'a\nb\nx = """\n-- sql comment\n++ not a header\n"""\nc\nd\n';
    const patch = linesPatch('t.py', text, [
      { start: 4, end: 4, lines: [] },
      { start: 5, end: 5, lines: ['++ still not a header\n'] },
    ]);
    expect(applyLinesPatch(patch, () => text).get('t.py')).toBe('a\nb\nx = """\n++ still not a header\n"""\nc\nd\n');
    const inserted = '--- a/t.py\n+++ b/t.py\n@@ -2,0 +3,2 @@\n+p\n+q\n';
    expect(applyLinesPatch(inserted, () => 'a\nb\nc\n').get('t.py')).toBe('a\nb\np\nq\nc\n');
  });
});
