import { RepocodError } from '@repocod/core';
import type { BodyHistory } from './body-history.js';
import { parseUtcDate, utcTimestamp } from './utc-date.js';

/**
 * Whether a body was written or changed strictly after the cutoff (UTC `YYYY-MM-DDTHH:MM:SSZ`, as
 * parseChangedSince gives it), by its author time. A function without a body to date (history null) never was.
 */
export function changedSince(history: Pick<BodyHistory, 'bodyChangedAt'> | null, cutoff: string): boolean {
  return history !== null && Date.parse(history.bodyChangedAt) > Date.parse(cutoff);
}

/**
 * What is wrong with a cutoff (`--changed-since`, or evaluate's `--since`): `no-dated-task` is a release whose
 * tasks carry no body date at all, so that no task can be told newer than the cutoff; `no-task-since` a cutoff
 * after every task's body date.
 */
export type ChangedSinceProblem =
  | 'not-a-date'
  | 'in-the-future'
  | 'after-the-base-commit'
  | 'no-dated-task'
  | 'no-task-since';

/** A cutoff that cannot select anything: a usage error naming the value and what to give instead. */
export class ChangedSinceError extends RepocodError {
  readonly value: string;
  readonly problem: ChangedSinceProblem;

  constructor(value: string, problem: ChangedSinceProblem, message: string) {
    super('usage', message);
    this.name = 'ChangedSinceError';
    this.value = value;
    this.problem = problem;
  }
}

const WHAT_TO_GIVE =
  'give a day such as 2024-09-01 (its start, UTC) or a timestamp with its zone such as 2024-09-01T12:00:00Z';

/**
 * The cutoff `--changed-since VALUE` names (or another option's, `flag`, named in the error), as UTC
 * `YYYY-MM-DDTHH:MM:SSZ`: a day (its start in UTC) or a timestamp with its zone. A value that is not such a date, and
 * a date after `now` (no code can have changed after it yet), are ChangedSinceErrors.
 */
export function parseChangedSince(value: string, now: Date, flag = '--changed-since'): string {
  const parsed = parseUtcDate(value);
  const option = `${flag} ${value}`;
  if (parsed === null) throw new ChangedSinceError(value, 'not-a-date', `${option} is not a date: ${WHAT_TO_GIVE}`);
  if (parsed > now.getTime()) {
    throw new ChangedSinceError(
      value,
      'in-the-future',
      `${option} is in the future (now is ${utcTimestamp(now.getTime())}): no code has changed after it yet; give a ` +
        `past date, such as a model's training cutoff`,
    );
  }
  return utcTimestamp(parsed);
}

/** The base commit a cutoff is checked against: a repository's commit and its committer time. */
export interface CutoffBase {
  readonly repository: string;
  readonly commit: string;
  /** The commit's committer time, any ISO 8601 form with a zone (git's `%cI`). */
  readonly committedAt: string;
}

/**
 * A cutoff at or after the base commit's committer time (git sources: `--changed-since` later than the commit being
 * built): a ChangedSinceError with problem `after-the-base-commit` that also names the repository and its commit.
 */
export class CutoffAfterBaseError extends ChangedSinceError {
  readonly repository: string;
  readonly commit: string;
  /** The base commit's committer time, UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly committedAt: string;

  constructor(cutoff: string, base: CutoffBase) {
    const committedAt = utcTimestamp(Date.parse(base.committedAt));
    super(
      cutoff,
      'after-the-base-commit',
      [
        `--changed-since ${cutoff} is not before the base commit of ${base.repository} (${base.commit.slice(0, 12)},`,
        `committed ${committedAt}): no body can have changed after it; give an earlier date, or a later base commit`,
        'with --at',
      ].join(' '),
    );
    this.name = 'CutoffAfterBaseError';
    this.repository = base.repository;
    this.commit = base.commit;
    this.committedAt = committedAt;
  }
}

/**
 * A cutoff at or after the base commit's committer time selects nothing: every line of the base was committed by
 * then, and a line's author time is not later than its commit's (barring clocks set wrong). That is a
 * CutoffAfterBaseError naming the repository, its base and what to do, rather than a run that ends with no task.
 */
export function checkCutoffBeforeBase(cutoff: string, base: CutoffBase): void {
  if (Date.parse(cutoff) < Date.parse(base.committedAt)) return;
  throw new CutoffAfterBaseError(cutoff, base);
}
