import { Null } from 'apache-arrow';
import { BadReleaseFileError } from './bad-release-file-error.js';
import type { ParquetRows } from './parquet-rows.js';
import { RELEASE_SCHEMA } from './seed-schema.js';

/**
 * The columns every row of a release has: the seed's (REPOCOD_Lite_Unified's) that hold something. Its null-typed
 * columns (test_patch, hints_text …) may be left out by another writer; no reader needs them.
 */
export const RELEASE_ROW_COLUMNS: readonly string[] = RELEASE_SCHEMA.fields
  .filter((field) => !(field.type instanceof Null))
  .map((field) => field.name);

/** How many column names a message lists before it says how many more there are. */
const SHOWN = 6;

/**
 * Refuses a Parquet file whose columns are not a release's, naming the first missing ones, the file's own columns
 * and its row count, so that rows of another schema are named once for the file rather than as a field missing from
 * each row (or, in a diff, as tasks of repository "undefined"). REPOCOD's own rows (lt-asset/REPOCOD on the Hub,
 * keyed by function_name) are said to be so, with the command that reads them.
 */
export function checkReleaseColumns(file: string, read: ParquetRows, fix?: string): void {
  const missing = RELEASE_ROW_COLUMNS.filter((column) => !read.columns.includes(column));
  if (missing.length === 0) return;
  const repocodForm = read.columns.includes('function_name');
  const absent =
    missing.length === RELEASE_ROW_COLUMNS.length
      ? `none of the ${RELEASE_ROW_COLUMNS.length} columns a release row has: ${listed(missing)}`
      : `no column ${listed(missing)}, of the ${RELEASE_ROW_COLUMNS.length} a release row has`;
  const found = `its ${read.rows.length} row(s) have ${read.columns.length === 0 ? 'no column' : listed(read.columns)}`;
  const form = repocodForm
    ? "REPOCOD's own form, as lt-asset/REPOCOD on the Hub has it, not the seed's a release has"
    : "a release has the seed's, REPOCOD_Lite_Unified's";
  const detail = `${absent}; ${found}: ${form}`;
  const reads = [
    "`repocod reference add NAME --from FILE` reads REPOCOD's form; evaluate, prompts and report --diff read",
    'a release `repocod publish` wrote',
  ].join(' ');
  throw new BadReleaseFileError(file, 'wrong-schema', detail, repocodForm ? reads : fix);
}

function listed(columns: readonly string[]): string {
  const more = columns.length > SHOWN ? ` and ${columns.length - SHOWN} more` : '';
  return `${columns.slice(0, SHOWN).join(', ')}${more}`;
}
