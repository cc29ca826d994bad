import type { DuckDBConnection } from '@duckdb/node-api';

/** DuckDB throws plain Errors whose message starts with its error class ("Parser Error: …"). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Ends a failed transaction without masking the failure that ended it. DuckDB may already have
 * closed the transaction itself (an aborted transaction ends at the next COMMIT), in which case
 * ROLLBACK reports "no transaction is active", which is harmless here.
 */
export async function rollbackQuietly(connection: DuckDBConnection): Promise<void> {
  try {
    await connection.run('ROLLBACK');
  } catch {
    // Nothing to undo: the original error is what the caller reports.
  }
}
