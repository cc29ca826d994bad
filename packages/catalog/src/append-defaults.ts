import type { DuckDBAppender } from '@duckdb/node-api';

/**
 * Columns that later migrations add after the ones this writer knows get their declared defaults, so
 * that adding a column with a default does not break extraction.
 */
export function appendTrailingDefaults(appender: DuckDBAppender, written: number): void {
  for (let column = written; column < appender.columnCount; column++) appender.appendDefault();
}
