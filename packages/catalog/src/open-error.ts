import { RepocodError } from '@repocod/core';
import { errorMessage } from './duckdb-errors.js';

/**
 * Turns a failure to open a catalog file into an error a user can act on. DuckDB reports all of these
 * as "IO Error: …"; the wording of its messages is what tells them apart.
 */
export function openError(path: string, error: unknown): RepocodError {
  const detail = errorMessage(error);
  if (/not a valid DuckDB database file/i.test(detail)) {
    return new RepocodError(
      'catalog-error',
      `${path} exists but is not a DuckDB database (or is empty or damaged); ` +
        'move it out of the way or choose another catalog path',
      { cause: error },
    );
  }
  const lock = /Conflicting lock is held in (.*?)(?: \(PID (\d+)\))?\.?(?: See also|$)/.exec(detail);
  if (lock !== null || /Could not set lock/i.test(detail)) {
    const holder = lock?.[2] !== undefined ? `process ${lock[2]} (${lock[1]})` : 'another process';
    return new RepocodError(
      'catalog-unwritable',
      `${path} is in use by ${holder}; wait for it to finish or stop it, then try again`,
      { cause: error },
    );
  }
  if (/Is a directory/i.test(detail)) {
    return new RepocodError(
      'catalog-unwritable',
      `${path} is a directory; give the catalog a file path such as ${path.replace(/\/+$/, '')}/catalog.duckdb`,
      { cause: error },
    );
  }
  if (/version number|serializ/i.test(detail)) {
    return new RepocodError(
      'catalog-error',
      `${path} was written by an incompatible DuckDB version (${detail}); choose another catalog path or rebuild it`,
      { cause: error },
    );
  }
  if (/^IO Error/i.test(detail)) {
    return new RepocodError(
      'catalog-unwritable',
      `cannot create or write the catalog ${path} (${detail}); choose a writable location for the catalog`,
      { cause: error },
    );
  }
  return new RepocodError('catalog-error', `cannot open the catalog ${path}: ${detail}`, { cause: error });
}
