import type { Cell, QueryResult } from './query-result.js';

export interface FormatTableOptions {
  /** Cells longer than this many characters are cut and end with `…`. Default 40; at least 1. */
  readonly maxCellWidth?: number;
  /** Text shown for SQL NULL. Default `NULL`, as DuckDB's own shell shows it. */
  readonly nullText?: string;
}

const DEFAULT_MAX_CELL_WIDTH = 40;

/**
 * Renders a query result as an aligned plain-text table: a header, a separator line, one line per row
 * and a closing `(N rows)` line. Numeric columns are right-aligned so that digits line up. Line breaks
 * inside a cell are shown as `⏎` and tabs as `⇥`, so that every row stays on one line.
 */
export function formatTable(result: QueryResult, options: FormatTableOptions = {}): string {
  const maxWidth = Math.max(1, Math.floor(options.maxCellWidth ?? DEFAULT_MAX_CELL_WIDTH));
  const nullText = options.nullText ?? 'NULL';
  const footer = rowCountLine(result.rows.length);
  if (result.columns.length === 0) return `${footer}\n`;

  const header = result.columns.map((column) => fit(oneLine(column), maxWidth));
  const body = result.rows.map((row) =>
    result.columns.map((_, index) => fit(oneLine(cellText(row[index] ?? null, nullText)), maxWidth)),
  );
  const numeric = result.columns.map((_, index) => isNumericColumn(result.rows, index));
  const widths = header.map((title, index) =>
    Math.max(textWidth(title), ...body.map((cells) => textWidth(cells[index] ?? ''))),
  );

  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, index) => pad(cell, widths[index] ?? 0, numeric[index] === true))
      .join(' | ')
      .trimEnd();
  const separator = widths.map((width) => '-'.repeat(width)).join('-+-');
  return `${[line(header), separator, ...body.map(line), footer].join('\n')}\n`;
}

function rowCountLine(count: number): string {
  return `(${count} ${count === 1 ? 'row' : 'rows'})`;
}

function cellText(cell: Cell, nullText: string): string {
  return cell === null ? nullText : String(cell);
}

/** A column is numeric when it holds at least one number and nothing else besides NULLs. */
function isNumericColumn(rows: readonly (readonly Cell[])[], index: number): boolean {
  let sawNumber = false;
  for (const row of rows) {
    const cell = row[index] ?? null;
    if (cell === null) continue;
    if (typeof cell !== 'number') return false;
    sawNumber = true;
  }
  return sawNumber;
}

function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '⏎').replace(/\t/g, '⇥');
}

/** Widths count code points, so that an astral character is one column, not two UTF-16 units. */
function textWidth(text: string): number {
  return Array.from(text).length;
}

function fit(text: string, maxWidth: number): string {
  const chars = Array.from(text);
  return chars.length <= maxWidth ? text : `${chars.slice(0, maxWidth - 1).join('')}…`;
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return right ? fill + text : text + fill;
}
