import { type DuckDBAppender, LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { type AnalysedFunction, type FunctionKind, type LineSpan, RepocodError } from '@repocod/core';
import { appendTrailingDefaults } from './append-defaults.js';
import { functionId } from './function-id.js';
import { boolean, double, integer, nullableInteger, nullableText, type Row, text, textList } from './typed-cells.js';

/** A function as the catalog holds it: the analysed function plus where and from which bytes it came. */
export interface CatalogFunction extends AnalysedFunction {
  readonly repository: string;
  /** `${repository}:${file}:${qualname}:${signatureSpan.start}` (see functionId). */
  readonly functionId: string;
  /** Content hash of the file the function was extracted from. */
  readonly contentHash: string;
}

/**
 * The `functions` columns in table order, which is the order the appender must write them in. A test
 * compares this list with the live table so that a migration and the writer cannot drift apart.
 */
export const FUNCTION_COLUMNS = [
  'function_id',
  'repository',
  'file',
  'qualname',
  'name',
  'class_name',
  'nested',
  'kind',
  'is_async',
  'decorators',
  'is_test_code',
  'def_start',
  'def_end',
  'sig_start',
  'sig_end',
  'doc_start',
  'doc_end',
  'body_start',
  'body_end',
  'docstring_lines',
  'parameter_count',
  'prompt',
  'solution',
  'full_source',
  'cc',
  'prompt_tokens',
  'solution_tokens',
  'prompt_lines',
  'solution_lines',
  'halstead_volume',
  'halstead_effort',
  'logical_lines',
  'maintainability',
  'is_candidate',
  'content_hash',
] as const;

const FUNCTION_KINDS: readonly FunctionKind[] = [
  'function',
  'method',
  'staticmethod',
  'classmethod',
  'property',
  'async',
];
const TEXT_LIST = LIST(VARCHAR);

/** Appends one `functions` row; the caller owns the appender and the transaction around it. */
export function appendFunction(
  appender: DuckDBAppender,
  repository: string,
  contentHash: string,
  fn: AnalysedFunction,
): void {
  const whole = (value: number, field: string): number => {
    if (!Number.isInteger(value) || Math.abs(value) > 2_147_483_647) {
      throw new RepocodError(
        'catalog-error',
        `${fn.file}: ${fn.qualname}: ${field} is ${value}, but the catalog stores it as a 32-bit whole number`,
      );
    }
    return value;
  };
  const m = fn.metrics;
  const doc = fn.docstringSpan;

  appender.appendVarchar(functionId(repository, fn.file, fn.qualname, fn.signatureSpan.start));
  appender.appendVarchar(repository);
  appender.appendVarchar(fn.file);
  appender.appendVarchar(fn.qualname);
  appender.appendVarchar(fn.name);
  appendNullableText(appender, fn.className);
  appender.appendBoolean(fn.nested);
  appender.appendVarchar(fn.kind);
  appender.appendBoolean(fn.isAsync);
  appender.appendList(listValue([...fn.decorators]), TEXT_LIST);
  appender.appendBoolean(fn.isTestCode);
  appender.appendInteger(whole(fn.definitionSpan.start, 'definitionSpan.start'));
  appender.appendInteger(whole(fn.definitionSpan.end, 'definitionSpan.end'));
  appender.appendInteger(whole(fn.signatureSpan.start, 'signatureSpan.start'));
  appender.appendInteger(whole(fn.signatureSpan.end, 'signatureSpan.end'));
  appendNullableInteger(appender, doc === null ? null : whole(doc.start, 'docstringSpan.start'));
  appendNullableInteger(appender, doc === null ? null : whole(doc.end, 'docstringSpan.end'));
  appender.appendInteger(whole(fn.bodySpan.start, 'bodySpan.start'));
  appender.appendInteger(whole(fn.bodySpan.end, 'bodySpan.end'));
  appender.appendInteger(doc === null ? 0 : doc.end - doc.start + 1);
  appender.appendInteger(whole(fn.parameterCount, 'parameterCount'));
  appender.appendVarchar(fn.slices.prompt);
  appender.appendVarchar(fn.slices.solution);
  appender.appendVarchar(fn.slices.full);
  appender.appendInteger(whole(m.cyclomatic, 'metrics.cyclomatic'));
  appender.appendInteger(whole(m.promptTokens, 'metrics.promptTokens'));
  appender.appendInteger(whole(m.solutionTokens, 'metrics.solutionTokens'));
  appender.appendInteger(whole(m.promptLines, 'metrics.promptLines'));
  appender.appendInteger(whole(m.solutionLines, 'metrics.solutionLines'));
  appender.appendDouble(m.halsteadVolume);
  appender.appendDouble(m.halsteadEffort);
  appender.appendInteger(whole(m.logicalLines, 'metrics.logicalLines'));
  appender.appendDouble(m.maintainability);
  appender.appendBoolean(fn.isCandidate);
  appender.appendVarchar(contentHash);
  appendTrailingDefaults(appender, FUNCTION_COLUMNS.length);
  appender.endRow();
}

function appendNullableText(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

function appendNullableInteger(appender: DuckDBAppender, value: number | null): void {
  if (value === null) appender.appendNull();
  else appender.appendInteger(value);
}

/** Rebuilds a CatalogFunction from a `SELECT *` row of `functions`. */
export function functionFromRow(row: Row): CatalogFunction {
  const kind = text(row, 'kind');
  if (!(FUNCTION_KINDS as readonly string[]).includes(kind)) {
    throw new RepocodError('catalog-error', `catalog column "kind" holds unknown function kind "${kind}"`);
  }
  const span = (start: string, end: string): LineSpan => ({ start: integer(row, start), end: integer(row, end) });
  const docStart = nullableInteger(row, 'doc_start');
  const docEnd = nullableInteger(row, 'doc_end');
  return {
    repository: text(row, 'repository'),
    functionId: text(row, 'function_id'),
    contentHash: text(row, 'content_hash'),
    file: text(row, 'file'),
    name: text(row, 'name'),
    qualname: text(row, 'qualname'),
    className: nullableText(row, 'class_name'),
    nested: boolean(row, 'nested'),
    kind: kind as FunctionKind,
    isAsync: boolean(row, 'is_async'),
    decorators: textList(row, 'decorators'),
    isTestCode: boolean(row, 'is_test_code'),
    definitionSpan: span('def_start', 'def_end'),
    signatureSpan: span('sig_start', 'sig_end'),
    docstringSpan: docStart === null || docEnd === null ? null : { start: docStart, end: docEnd },
    bodySpan: span('body_start', 'body_end'),
    slices: { prompt: text(row, 'prompt'), solution: text(row, 'solution'), full: text(row, 'full_source') },
    parameterCount: integer(row, 'parameter_count'),
    metrics: {
      cyclomatic: integer(row, 'cc'),
      promptTokens: integer(row, 'prompt_tokens'),
      solutionTokens: integer(row, 'solution_tokens'),
      promptLines: integer(row, 'prompt_lines'),
      solutionLines: integer(row, 'solution_lines'),
      halsteadVolume: double(row, 'halstead_volume'),
      halsteadEffort: double(row, 'halstead_effort'),
      logicalLines: integer(row, 'logical_lines'),
      maintainability: double(row, 'maintainability'),
    },
    isCandidate: boolean(row, 'is_candidate'),
  };
}
