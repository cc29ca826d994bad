import { DuckDBTimestampValue, listValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  boolean,
  double,
  integer,
  nullableInteger,
  nullableIntegerList,
  nullableText,
  text,
  textList,
  timestamp,
  timestampValueOf,
} from './typed-cells.js';

describe('typed cells', () => {
  it('read the types the schema promises', () => {
    const row = {
      t: 'x',
      n: null,
      i: 3,
      big: 7n,
      d: 0.5,
      b: true,
      l: listValue(['a', 'b']),
      il: listValue([1, 2]),
      ts: new DuckDBTimestampValue(1_700_000_000_123_000n),
    };
    expect(text(row, 't')).toBe('x');
    expect(nullableText(row, 'n')).toBeNull();
    expect(integer(row, 'i')).toBe(3);
    expect(integer(row, 'big')).toBe(7);
    expect(nullableInteger(row, 'n')).toBeNull();
    expect(double(row, 'd')).toBe(0.5);
    expect(boolean(row, 'b')).toBe(true);
    expect(textList(row, 'l')).toEqual(['a', 'b']);
    expect(nullableIntegerList(row, 'il')).toEqual([1, 2]);
    expect(nullableIntegerList(row, 'n')).toBeNull();
    expect(timestamp(row, 'ts').toISOString()).toBe('2023-11-14T22:13:20.123Z');
  });

  it('round-trip a Date through a DuckDB timestamp to the millisecond', () => {
    const date = new Date('2024-01-02T03:04:05.678Z');
    expect(timestamp({ ts: timestampValueOf(date) }, 'ts')).toEqual(date);
  });

  it('report a value of the wrong type as a schema mismatch naming the column', () => {
    expect(() => text({ kind: 3 }, 'kind')).toThrow(
      expect.objectContaining({ code: 'catalog-error', message: expect.stringContaining('"kind" holds number') }),
    );
    expect(() => integer({ cc: 1.5 }, 'cc')).toThrow(/"cc"/);
    expect(() => textList({ decorators: listValue([1]) }, 'decorators')).toThrow(/decorators\[\]/);
    expect(() => text({}, 'missing')).toThrow(/did not return column "missing"/);
  });
});
