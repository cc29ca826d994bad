import { type DuckDBAppender, INTEGER, LIST, listValue } from '@duckdb/node-api';
import { type FileIssue, RepocodError } from '@repocod/core';
import { FILE_STATUSES, type FileExtraction, type FileStatus } from './file-extraction.js';
import { appendTrailingDefaults } from './append-defaults.js';
import {
  integer,
  nullableIntegerList,
  nullableText,
  type Row,
  text,
  timestamp,
  timestampValueOf,
} from './typed-cells.js';

/** A row of `files`: the bookkeeping of one scanned file. */
export interface CatalogFile {
  readonly repository: string;
  readonly file: string;
  readonly contentHash: string;
  readonly extractorFingerprint: string;
  readonly status: FileStatus;
  readonly issue: FileIssue | null;
  readonly functionCount: number;
  readonly extractedAt: Date;
}

/** The `files` columns in table order (see FUNCTION_COLUMNS for why this list exists). */
export const FILE_COLUMNS = [
  'repository',
  'file',
  'content_hash',
  'extractor_fingerprint',
  'status',
  'issue_lines',
  'message',
  'function_count',
  'extracted_at',
] as const;

const INTEGER_LIST = LIST(INTEGER);

export function appendFile(
  appender: DuckDBAppender,
  repository: string,
  extraction: FileExtraction,
  extractedAt: Date,
): void {
  const { issue } = extraction;
  appender.appendVarchar(repository);
  appender.appendVarchar(extraction.file);
  appender.appendVarchar(extraction.contentHash);
  appender.appendVarchar(extraction.extractorFingerprint);
  appender.appendVarchar(extraction.status);
  if (issue === null) {
    appender.appendNull();
    appender.appendNull();
  } else {
    appender.appendList(listValue([...issue.lines]), INTEGER_LIST);
    appender.appendVarchar(issue.message);
  }
  appender.appendInteger(extraction.functions.length);
  appender.appendTimestamp(timestampValueOf(extractedAt));
  appendTrailingDefaults(appender, FILE_COLUMNS.length);
  appender.endRow();
}

export function fileFromRow(row: Row): CatalogFile {
  const file = text(row, 'file');
  const status = text(row, 'status');
  if (!(FILE_STATUSES as readonly string[]).includes(status)) {
    throw new RepocodError('catalog-error', `catalog column "status" holds unknown file status "${status}"`);
  }
  const issue: FileIssue | null =
    status === 'ok'
      ? null
      : {
          file,
          kind: status as FileIssue['kind'],
          lines: nullableIntegerList(row, 'issue_lines') ?? [],
          message: nullableText(row, 'message') ?? '',
        };
  return {
    repository: text(row, 'repository'),
    file,
    contentHash: text(row, 'content_hash'),
    extractorFingerprint: text(row, 'extractor_fingerprint'),
    status: status as FileStatus,
    issue,
    functionCount: integer(row, 'function_count'),
    extractedAt: timestamp(row, 'extracted_at'),
  };
}
