/**
 * Every failure a user can act on is a RepocodError: a stable machine-readable code (for scripts and
 * tests) and a message that names the file, line or field concerned and what to do about it.
 */
export type RepocodErrorCode =
  | 'path-not-found'
  | 'not-a-directory'
  | 'file-unreadable'
  | 'catalog-unwritable'
  | 'catalog-error'
  | 'config-invalid'
  | 'parse-error'
  | 'tool-missing'
  | 'commit-missing'
  | 'git-failed'
  | 'environment-failed'
  | 'tests-cannot-run'
  | 'hub-failed'
  | 'job-malformed'
  | 'executor-failed'
  | 'download-failed'
  | 'rebuild-differs'
  | 'ref-malformed'
  | 'ref-not-found'
  | 'date-in-future'
  | 'date-before-history'
  | 'embedding-failed'
  | 'usage';

export class RepocodError extends Error {
  readonly code: RepocodErrorCode;

  constructor(code: RepocodErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RepocodError';
    this.code = code;
  }
}

export function isRepocodError(value: unknown): value is RepocodError {
  return value instanceof RepocodError;
}
