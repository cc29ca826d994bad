import { readFileSync } from 'node:fs';
import type { Table } from 'apache-arrow';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { RepocodError } from '@repocod/core';
import { BadReleaseFileError } from './bad-release-file-error.js';

/** A Parquet file read whole: its columns, in the file's order, and its rows as plain objects. */
export interface ParquetRows {
  readonly columns: readonly string[];
  readonly rows: Record<string, unknown>[];
}

/** Every Parquet file starts and ends with these four bytes. */
const MAGIC = 'PAR1';

/**
 * Reads any Parquet file (a release's, or a reference's of another form). A file that is not there or that
 * parquet-wasm cannot read is a BadReleaseFileError naming it, what its bytes look like (empty, cut short, not
 * Parquet) and `fix`; parquet-wasm's own error says only "Corrupt footer", and with a stack trace.
 */
export function readParquetRows(file: string, fix?: string): ParquetRows {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BadReleaseFileError(file, 'missing-file', 'no such file', fix);
    throw new RepocodError('file-unreadable', `${file}: cannot be read (${(error as Error).message})`);
  }
  let table: Table;
  try {
    table = tableFromIPC(readParquet(bytes).intoIPCStream());
  } catch (error) {
    // parquet-wasm's word on an empty file ("not a Uint8Array") misleads: the size says it all.
    const said = bytes.byteLength === 0 ? '' : `; parquet-wasm: ${error instanceof Error ? error.message : error}`;
    throw new BadReleaseFileError(file, 'corrupt-parquet', `${looks(bytes)}${said}`, fix);
  }
  return {
    columns: table.schema.fields.map((field) => field.name),
    rows: table
      .toArray()
      .map(
        (row: { toJSON(): Record<string, unknown> }) =>
          JSON.parse(JSON.stringify(row.toJSON())) as Record<string, unknown>,
      ),
  };
}

/** What the bytes of an unreadable Parquet file look like: which of the usual accidents it is. */
function looks(bytes: Buffer): string {
  if (bytes.byteLength === 0) return 'an empty file, 0 bytes';
  const size = `${bytes.byteLength} bytes`;
  if (bytes.subarray(0, 4).toString('latin1') !== MAGIC)
    return `${size} that do not start with Parquet's ${MAGIC} mark: not a Parquet file at all`;
  if (bytes.subarray(-4).toString('latin1') !== MAGIC)
    return `${size} that do not end with Parquet's ${MAGIC} mark: cut short, truncated`;
  return `${size}, its footer or its pages damaged`;
}
