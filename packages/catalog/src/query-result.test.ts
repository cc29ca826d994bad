import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCell } from './query-result.js';

describe('toCell', () => {
  let instance: DuckDBInstance;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
  });
  afterAll(() => instance.closeSync());

  async function cells(sql: string): Promise<unknown[]> {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql);
      return (reader.getRows()[0] ?? []).map((value: DuckDBValue) => toCell(value));
    } finally {
      connection.closeSync();
    }
  }

  it('passes through text, booleans, doubles and NULL', async () => {
    expect(await cells("SELECT 'x', true, 0.25::DOUBLE, NULL")).toEqual(['x', true, 0.25, null]);
  });

  it('turns integers into numbers while exact and into strings beyond', async () => {
    expect(
      await cells(
        'SELECT 42::BIGINT, count(*), 9007199254740991::BIGINT, 9007199254740993::BIGINT, ' +
          '170141183460469231731687303715884105727::HUGEINT',
      ),
    ).toEqual([42, 1, 9007199254740991, '9007199254740993', '170141183460469231731687303715884105727']);
    expect(await cells('SELECT -9007199254740993::BIGINT')).toEqual(['-9007199254740993']);
  });

  it('turns narrow decimals into numbers and keeps wide ones exact', async () => {
    expect(await cells('SELECT 1.5, 12345678901234567890.12::DECIMAL(38,2)')).toEqual([1.5, '12345678901234567890.12']);
  });

  it('writes lists, structs and maps as JSON text', async () => {
    expect(
      await cells("SELECT [1, 2], ['a', 'b\"c'], [], {'x': 1, 'y': [true]}, MAP {'k': 2}, [NULL]::INTEGER[]"),
    ).toEqual(['[1,2]', '["a","b\\"c"]', '[]', '{"x":1,"y":[true]}', '{"k":2}', '[null]']);
  });

  it('writes timestamps as ISO 8601 in UTC with the precision they carry', async () => {
    expect(
      await cells(
        "SELECT TIMESTAMP '2024-03-05 06:07:08', TIMESTAMP '2024-03-05 06:07:08.123456', " +
          "TIMESTAMP_NS '2024-03-05 06:07:08.123456789', TIMESTAMP_S '2024-03-05 06:07:08', " +
          "TIMESTAMP_MS '1969-12-31 23:59:59.5', TIMESTAMP 'infinity'",
      ),
    ).toEqual([
      '2024-03-05T06:07:08.000Z',
      '2024-03-05T06:07:08.123456Z',
      '2024-03-05T06:07:08.123456789Z',
      '2024-03-05T06:07:08.000Z',
      '1969-12-31T23:59:59.500Z',
      'infinity',
    ]);
    const [tz] = await cells("SELECT TIMESTAMPTZ '2024-03-05 06:07:08+02'");
    expect(tz).toBe('2024-03-05T04:07:08.000Z');
  });

  it("uses DuckDB's text for other types", async () => {
    expect(
      await cells("SELECT DATE '2024-03-05', INTERVAL 3 DAY, '00000000-0000-0000-0000-000000000001'::UUID"),
    ).toEqual(['2024-03-05', '3 days', '00000000-0000-0000-0000-000000000001']);
  });
});
