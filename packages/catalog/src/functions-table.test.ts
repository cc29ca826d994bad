import { describe, expect, it } from 'vitest';
import { appendFunction, FUNCTION_COLUMNS, functionFromRow } from './functions-table.js';
import { syntheticFunction, useMigratedDatabase } from './testing/test-support.js';

describe('functions table', () => {
  const connection = useMigratedDatabase();

  it('writes the columns in the order the migrations created them', async () => {
    const reader = await connection().runAndReadAll(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = 'functions' ORDER BY column_index",
    );
    expect(reader.getRows().map((row) => row[0])).toEqual([...FUNCTION_COLUMNS]);
  });

  it('reads back exactly what it wrote, with the derived columns', async () => {
    const plain = syntheticFunction('pkg/mod.py', 1);
    const decorated = syntheticFunction('pkg/mod.py', 0, {
      className: null,
      kind: 'async',
      isAsync: true,
      nested: true,
      qualname: 'outer.<locals>.method_0',
      isTestCode: true,
      slices: { prompt: 'async def f():\n    """é\t"""\n', solution: '', full: 'async def f():\n    """é\t"""\n' },
    });
    const appender = await connection().createAppender('functions');
    appendFunction(appender, 'repo', 'h1', plain);
    appendFunction(appender, 'repo', 'h1', decorated);
    appender.closeSync();

    const reader = await connection().runAndReadAll('SELECT * FROM functions ORDER BY sig_start');
    const rows = reader.getRowObjects();
    expect(rows.map(functionFromRow)).toEqual([
      { ...decorated, repository: 'repo', contentHash: 'h1', functionId: 'repo:pkg/mod.py:outer.<locals>.method_0:3' },
      { ...plain, repository: 'repo', contentHash: 'h1', functionId: 'repo:pkg/mod.py:Widget.method_1:21' },
    ]);
    expect(rows.map((row) => row.docstring_lines)).toEqual([13, 0]);
  });

  it('names the function and field when a number does not fit the schema', async () => {
    const appender = await connection().createAppender('functions');
    const bad = syntheticFunction('a.py', 0, { parameterCount: 2.5 });
    expect(() => appendFunction(appender, 'repo', 'h', bad)).toThrow(
      expect.objectContaining({
        code: 'catalog-error',
        message: 'a.py: Widget.method_0: parameterCount is 2.5, but the catalog stores it as a 32-bit whole number',
      }),
    );
    appender.clear();
    appender.closeSync();
  });
});
