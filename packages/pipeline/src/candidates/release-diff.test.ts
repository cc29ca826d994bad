import { describe, expect, it } from 'vitest';
import { bodyChanges, changedAfterOlder, normalizedBody } from './release-diff.js';

const fn = (qualname: string, solution: string, file = 'pkg/mod.py') => ({ file, qualname, slices: { solution } });

describe('bodyChanges: a snapshot against an older release', () => {
  const older = [
    fn('same', '    total = x * 2\n    return total\n'),
    fn('edited', '    result = x + 1\n    return result\n'),
    fn('spaced', '  s=x+y\n  return s\n'),
    fn('twice', '    return 1\n'),
    fn('twice', '    return 2\n'),
    fn('elsewhere', '    return x\n', 'pkg/other.py'),
  ];
  const newer = [
    fn('same', '    total = x * 2\n    return total\n'),
    fn('edited', '    result = 1 + x\n    return result\n'),
    // Re-indented, respaced, a comment-only line and a blank line added: the same code.
    fn('spaced', '    # the sum\n    s = x + y\n\n    return s\n'),
    // A name defined twice (under if/else) matches either of its bodies.
    fn('twice', '    return 2\n'),
    fn('fresh', '    return -x\n'),
    // The same name in another file is another function.
    fn('elsewhere', '    return x\n'),
    fn('docstring_only', ''),
    fn('comment_only', '    # nothing yet\n'),
    // A comment after code is part of the code line.
    fn('same', '    total = x * 2  # doubled\n    return total\n', 'pkg/mod.py'),
  ];

  it('says which bodies changed, were added, stayed, or have no code line to compare', () => {
    const changes = bodyChanges(newer, older);
    expect(newer.map((body) => changes.get(body))).toEqual([
      'unchanged',
      'changed',
      'unchanged',
      'unchanged',
      'added',
      'added',
      'no-code-line',
      'no-code-line',
      'changed',
    ]);
    expect(
      ['changed', 'added', 'unchanged', 'no-code-line'].map((change) => changedAfterOlder(change as never)),
    ).toEqual([true, true, false, false]);
  });

  it('normalises a body to its code lines without whitespace, and a line split in two is a change', () => {
    expect(normalizedBody('\n    x = f(a,  b)\r\n    # why\n\treturn x\n')).toBe('x=f(a,b)\nreturnx');
    expect(normalizedBody('    x = f(a,\n          b)\n    return x\n')).not.toBe(
      normalizedBody('    x = f(a, b)\n    return x\n'),
    );
    expect(normalizedBody('   \n# only a comment\n')).toBeNull();
  });
});
