import { RepocodError } from '@repocod/core';
import { isUtcDateText, parseUtcDate, utcTimestamp } from './utc-date.js';

/**
 * The moment an environment's package versions are resolved as of, as UTC RFC 3339
 * (`2024-09-27T22:18:54Z`), or null for no limit. The rules, in order:
 *
 * 1. the manifest's `exclude_newer`: `none` turns the limit off; a date (`2024-09-01`, the start of that
 *    day in UTC) or a timestamp with a zone is taken as given;
 * 2. otherwise the base commit's committer timestamp, when the manifest pins a base commit: the
 *    environment the commit's own CI would have resolved that day;
 * 3. otherwise (a local folder without a commit, snapshotted by the runner at a fixed date) none.
 */
export function resolutionDate(
  excludeNewer: string | undefined,
  pinnedCommit: string | null,
  commitTimestamp: string,
): string | null {
  if (excludeNewer !== undefined)
    return excludeNewer === 'none' ? null : normalizeResolutionDate(excludeNewer, 'exclude_newer');
  if (pinnedCommit === null) return null;
  return normalizeResolutionDate(commitTimestamp, 'the base commit timestamp');
}

/**
 * `2024-09-01` or an ISO 8601 timestamp with a zone, as UTC `YYYY-MM-DDTHH:MM:SSZ`; anything else is an error naming
 * `what`.
 */
export function normalizeResolutionDate(value: string, what: string): string {
  const parsed = parseUtcDate(value);
  if (parsed === null) {
    throw new RepocodError(
      'config-invalid',
      `${what} ${JSON.stringify(value)} is not a date: give 2024-09-01, a timestamp with its zone such as ` +
        `2024-09-01T12:00:00Z, or none`,
    );
  }
  return utcTimestamp(parsed);
}

/** Whether `value` is accepted as a manifest's `exclude_newer`. */
export function isResolutionDateText(value: string): boolean {
  return value === 'none' || isUtcDateText(value);
}
