import { DuckDBListValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';

/** A result row keyed by column name, as DuckDB returns it. */
export type Row = Readonly<Record<string, DuckDBValue>>;

/**
 * Readers that turn a column of a catalog row into the TypeScript type the schema promises. A value of
 * another type means the catalog's schema is not the one this code was built for, which is reported
 * rather than passed on as a wrong value.
 */
function mismatch(column: string, expected: string, value: DuckDBValue): RepocodError {
  const got = value === null ? 'NULL' : typeof value === 'object' ? value.constructor.name : typeof value;
  return new RepocodError(
    'catalog-error',
    `catalog column "${column}" holds ${got} where ${expected} was expected; the catalog's schema does not match ` +
      `this ` +
      `repocod-kit`,
  );
}

function cell(row: Row, column: string): DuckDBValue {
  const value = row[column];
  if (value === undefined) {
    throw new RepocodError(
      'catalog-error',
      `catalog query did not return column "${column}"; the catalog's schema does not match`,
    );
  }
  return value;
}

export function text(row: Row, column: string): string {
  const value = cell(row, column);
  if (typeof value !== 'string') throw mismatch(column, 'text', value);
  return value;
}

export function nullableText(row: Row, column: string): string | null {
  return cell(row, column) === null ? null : text(row, column);
}

export function integer(row: Row, column: string): number {
  const value = cell(row, column);
  if (
    typeof value === 'bigint' &&
    value <= BigInt(Number.MAX_SAFE_INTEGER) &&
    value >= BigInt(Number.MIN_SAFE_INTEGER)
  ) {
    return Number(value);
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) throw mismatch(column, 'an integer', value);
  return value;
}

export function nullableInteger(row: Row, column: string): number | null {
  return cell(row, column) === null ? null : integer(row, column);
}

export function double(row: Row, column: string): number {
  const value = cell(row, column);
  if (typeof value !== 'number') throw mismatch(column, 'a number', value);
  return value;
}

export function boolean(row: Row, column: string): boolean {
  const value = cell(row, column);
  if (typeof value !== 'boolean') throw mismatch(column, 'a boolean', value);
  return value;
}

export function textList(row: Row, column: string): string[] {
  const value = cell(row, column);
  if (!(value instanceof DuckDBListValue)) throw mismatch(column, 'a list of text', value);
  return value.items.map((item) => {
    if (typeof item !== 'string') throw mismatch(`${column}[]`, 'text', item);
    return item;
  });
}

export function nullableIntegerList(row: Row, column: string): number[] | null {
  const value = cell(row, column);
  if (value === null) return null;
  if (!(value instanceof DuckDBListValue)) throw mismatch(column, 'a list of integers', value);
  return value.items.map((item) => {
    if (typeof item !== 'number' || !Number.isInteger(item)) throw mismatch(`${column}[]`, 'an integer', item);
    return item;
  });
}

/** Catalog timestamps are UTC wall-clock values (TIMESTAMP without zone). */
export function timestamp(row: Row, column: string): Date {
  const value = cell(row, column);
  if (!(value instanceof DuckDBTimestampValue)) throw mismatch(column, 'a timestamp', value);
  return new Date(Number(value.micros / 1000n));
}

export function nullableTimestamp(row: Row, column: string): Date | null {
  return cell(row, column) === null ? null : timestamp(row, column);
}

export function timestampValueOf(date: Date): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(date.getTime()) * 1000n);
}

/** A text column whose value must be one of `allowed` (a status, an outcome, a level). */
export function oneOf<T extends string>(row: Row, column: string, allowed: readonly T[], what: string): T {
  const value = text(row, column);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new RepocodError('catalog-error', `catalog column "${column}" holds unknown ${what} "${value}"`);
  }
  return value as T;
}
