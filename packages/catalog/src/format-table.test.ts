import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.js';

describe('formatTable', () => {
  it('aligns columns, right-aligns numbers and counts rows', () => {
    const text = formatTable({
      columns: ['repository', 'functions', 'ok'],
      rows: [
        ['flask', 1234, true],
        ['more-itertools', 7, false],
      ],
    });
    expect(text).toBe(
      [
        'repository     | functions | ok',
        '---------------+-----------+------',
        'flask          |      1234 | true',
        'more-itertools |         7 | false',
        '(2 rows)',
        '',
      ].join('\n'),
    );
  });

  it('shows NULL, keeps numeric alignment across NULLs and says "1 row"', () => {
    expect(formatTable({ columns: ['n', 's'], rows: [[null, null]] })).toBe(
      'n    | s\n-----+-----\nNULL | NULL\n(1 row)\n',
    );
    expect(formatTable({ columns: ['cc'], rows: [[12], [null], [3]] })).toBe(
      '  cc\n----\n  12\nNULL\n   3\n(3 rows)\n',
    );
  });

  it('left-aligns a column that mixes numbers and text', () => {
    expect(formatTable({ columns: ['v'], rows: [[1], ['18446744073709551615']] })).toBe(
      'v\n--------------------\n1\n18446744073709551615\n(2 rows)\n',
    );
  });

  it('shows line breaks and tabs as symbols so each row stays on one line', () => {
    const text = formatTable({ columns: ['prompt'], rows: [['def f():\n\t"""Doc."""\r\n']] });
    expect(text.split('\n')[2]).toBe('def f():⏎⇥"""Doc."""⏎');
  });

  it('cuts long cells at the configured width with an ellipsis', () => {
    const text = formatTable({ columns: ['x'], rows: [['abcdefghij'], ['abcde']] }, { maxCellWidth: 5 });
    expect(text).toBe('x\n-----\nabcd…\nabcde\n(2 rows)\n');
    expect(formatTable({ columns: ['x'], rows: [['😀😀😀']] }, { maxCellWidth: 2 })).toContain('\n😀…\n');
  });

  it('handles results without rows or columns', () => {
    expect(formatTable({ columns: ['a', 'b'], rows: [] })).toBe('a | b\n--+--\n(0 rows)\n');
    expect(formatTable({ columns: [], rows: [] })).toBe('(0 rows)\n');
  });

  it('accepts another text for NULL', () => {
    expect(formatTable({ columns: ['a'], rows: [[null]] }, { nullText: '∅' })).toBe('a\n-\n∅\n(1 row)\n');
  });
});
