import type { AnalysedFunction, FileIssue } from '@repocod/core';

/** What happened to a file: `ok`, or the kind of issue that kept some or all of its functions out. */
export type FileStatus = 'ok' | FileIssue['kind'];

export const FILE_STATUSES: readonly FileStatus[] = [
  'ok',
  'syntax-error',
  'not-utf8',
  'binary',
  'unreadable',
  'analysis-error',
];

/** The extract stage's result for one file, as the catalog stores it. */
export interface FileExtraction {
  /** Repository-relative path with `/` separators. */
  readonly file: string;
  /** sha256 hex of the file's bytes (`contentHash` from @repocod/core). */
  readonly contentHash: string;
  /** Identifies the extractor build and settings; a change forces re-extraction. */
  readonly extractorFingerprint: string;
  readonly status: FileStatus;
  /** Null exactly when `status` is `ok`; otherwise an issue of kind `status`. */
  readonly issue: FileIssue | null;
  /** Functions found; a file with a syntax error may still give some. */
  readonly functions: readonly AnalysedFunction[];
}

/**
 * Finds the first inconsistency in a batch of extractions, or returns null. Checked before anything is
 * written, because a function filed under the wrong path, or a file listed twice, would make later
 * deletes miss rows and leave stale functions behind.
 */
export function extractionProblem(extractions: readonly FileExtraction[]): string | null {
  const seen = new Set<string>();
  for (const extraction of extractions) {
    const { file, status, issue } = extraction;
    if (seen.has(file)) return `${file} is listed twice`;
    seen.add(file);
    if (!FILE_STATUSES.includes(status)) return `${file}: unknown status "${status}"`;
    if (status === 'ok' && issue !== null) return `${file}: status is ok but an issue (${issue.kind}) is given`;
    if (status !== 'ok' && issue === null) return `${file}: status is ${status} but no issue is given`;
    if (issue !== null && issue.kind !== status) return `${file}: status is ${status} but the issue is ${issue.kind}`;
    if (issue !== null && issue.file !== file) return `${file}: its issue names another file, ${issue.file}`;
    if (issue !== null && !issue.lines.every(Number.isInteger)) return `${file}: issue lines must be whole numbers`;
    const stray = extraction.functions.find((fn) => fn.file !== file);
    if (stray !== undefined) return `${file}: function ${stray.qualname} says it is in ${stray.file}`;
  }
  return null;
}
