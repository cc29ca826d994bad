import {
  DuckDBArrayValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBUnionValue,
  type DuckDBValue,
} from '@duckdb/node-api';

/** A value as `repocod sql` prints it: DuckDB's own value classes never leave the catalog. */
export type Cell = string | number | boolean | null;

export interface QueryResult {
  columns: string[];
  rows: Cell[][];
}

type Jsonish = string | number | boolean | null | Jsonish[] | { [key: string]: Jsonish };

/**
 * Converts one DuckDB value to a printable cell. Integers stay numbers while a JavaScript number holds
 * them exactly and become decimal strings beyond that; lists, structs and maps become JSON text;
 * timestamps become ISO 8601 strings in UTC (the catalog stores UTC); anything else uses DuckDB's own
 * text form.
 */
export function toCell(value: DuckDBValue): Cell {
  const converted = toJsonish(value);
  return typeof converted === 'object' && converted !== null ? JSON.stringify(converted) : converted;
}

function toJsonish(value: DuckDBValue): Jsonish {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number') {
    return value;
  }
  if (typeof value === 'bigint') return bigintCell(value);
  if (value instanceof DuckDBDecimalValue) {
    // A double holds up to 15 significant decimal digits exactly; wider decimals would be rounded.
    return value.width <= 15 ? value.toDouble() : value.toString();
  }
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) return value.items.map(toJsonish);
  if (value instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(value.entries).map(([key, item]) => [key, toJsonish(item)]));
  }
  if (value instanceof DuckDBMapValue) {
    return Object.fromEntries(value.entries.map((entry) => [String(toCell(entry.key)), toJsonish(entry.value)]));
  }
  if (value instanceof DuckDBUnionValue) return toJsonish(value.value);
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
    return isoTimestamp(value.micros * 1000n, value.toString());
  }
  if (value instanceof DuckDBTimestampSecondsValue)
    return isoTimestamp(value.seconds * 1_000_000_000n, value.toString());
  if (value instanceof DuckDBTimestampMillisecondsValue)
    return isoTimestamp(value.millis * 1_000_000n, value.toString());
  if (value instanceof DuckDBTimestampNanosecondsValue) return isoTimestamp(value.nanos, value.toString());
  return value.toString();
}

function bigintCell(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

/**
 * ISO 8601 with as many fraction digits as the value needs (3, 6 or 9). Infinite timestamps and those
 * beyond JavaScript's Date range keep DuckDB's text ("infinity", "294247-01-10 …").
 */
function isoTimestamp(nanos: bigint, fallback: string): string {
  const millis = floorDiv(nanos, 1_000_000n);
  const date = new Date(Number(millis));
  if (Number.isNaN(date.getTime())) return fallback;
  const subMillis = nanos - millis * 1_000_000n;
  const iso = date.toISOString();
  if (subMillis === 0n) return iso;
  const digits = subMillis.toString().padStart(6, '0');
  const extra = digits.endsWith('000') ? digits.slice(0, 3) : digits;
  return `${iso.slice(0, -1)}${extra}Z`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n ? quotient - 1n : quotient;
}
