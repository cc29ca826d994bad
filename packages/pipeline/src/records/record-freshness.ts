import type { BodyHistoryRow, StoredTask } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import { changedSince } from '@repocod/runner';
import { bodyDateText, datedByText } from '../candidates/body-dates.js';
import type { BodyDating, ReleaseDiffRecord } from '../candidates/body-dating.js';
import { BLAME_DATING, releaseDiffRecord } from '../candidates/body-dating.js';

/*
 * The freshness of a rebuild made with `--changed-since CUTOFF` (a fresh version): when each task's body last changed,
 * and how many of the repository's candidates changed after the cutoff. The cutoff is not stored with a build, so the
 * record is told it and checks it against the tasks: a task whose body did not change after it was built under
 * another cutoff (or none), and the record refuses to call it fresh.
 */

/** When a task's body last changed at the base commit: the two fields a fresh record's line ends with. */
export interface BodyDateFields {
  /**
   * The commit of the body's newest code line (git blame at the base commit); for a repository dated by release
   * diff, `release-diff:OLD..NEW` (changed since the older release) or `release-diff:..OLD` (as it was there).
   */
  readonly body_commit: string;
  /** That line's author time, UTC `YYYY-MM-DDTHH:MM:SSZ`; by release diff, the newer or older release's date. */
  readonly body_changed_at: string;
}

/** `freshness` in a fresh record's meta. */
export interface RecordFreshness {
  /** The `--changed-since` cutoff, UTC. */
  readonly changed_since: string;
  /** How the bodies were dated (as the release's freshness.json says it): blame's command or `release-diff`. */
  readonly dated_by: string;
  /** By release diff: the two releases compared. Absent for a repository dated by git blame. */
  readonly release_diff?: ReleaseDiffRecord;
  /** The repository's candidates whose body could be dated (a body without a code line cannot). */
  readonly candidates_dated: number;
  /** Of the candidates, those whose body changed after the cutoff: the pool the tasks came from. */
  readonly candidates_changed: number;
  /** The oldest and newest body date among the tasks; null without tasks. */
  readonly oldest_body_changed_at: string | null;
  readonly newest_body_changed_at: string | null;
}

/** What the freshness of a record is made of. */
export interface FreshnessInputs {
  readonly cutoff: string;
  /** The stored body dates at the tasks' base commit, by function id. */
  readonly bodyDates: ReadonlyMap<string, BodyHistoryRow>;
  /** The function ids of the repository's candidates. */
  readonly candidateIds: readonly string[];
  /** How the stored dates were made (the catalog's key says it: storedDating); default git blame. */
  readonly dating?: BodyDating;
}

export interface Freshness {
  readonly byInstance: ReadonlyMap<string, BodyDateFields>;
  readonly meta: RecordFreshness;
}

/**
 * Each task's body date and the repository's counts under the cutoff. A task whose body was not dated, or did not
 * change after the cutoff, is a usage error naming it: the catalog holds tasks built under another cutoff.
 */
export function recordFreshness(repository: string, tasks: readonly StoredTask[], inputs: FreshnessInputs): Freshness {
  const byInstance = new Map<string, BodyDateFields>();
  for (const task of tasks) {
    const dated = datedBody(inputs.bodyDates.get(task.functionId));
    if (dated === null || !changedSince({ bodyChangedAt: dated.body_changed_at }, inputs.cutoff)) {
      const when = dated === null ? 'was never dated' : `last changed ${dated.body_changed_at}`;
      throw new RepocodError(
        'usage',
        `--changed-since ${inputs.cutoff}: ${repository}'s task ${task.instanceId} ${when}, not after the cutoff; ` +
          `its tasks were built under another cutoff: give the one they were built with, or run \`repocod tasks ` +
          `${repository} ` +
          `--changed-since ${inputs.cutoff}\` again`,
      );
    }
    byInstance.set(task.instanceId, dated);
  }
  const candidates = inputs.candidateIds.map((id) => datedBody(inputs.bodyDates.get(id)));
  const taskDates = [...byInstance.values()].map((fields) => fields.body_changed_at).sort();
  const dating = inputs.dating ?? BLAME_DATING;
  return {
    byInstance,
    meta: {
      changed_since: inputs.cutoff,
      dated_by: datedByText(dating),
      ...(dating.kind === 'release-diff' ? { release_diff: releaseDiffRecord(dating) } : {}),
      candidates_dated: candidates.filter((dated) => dated !== null).length,
      candidates_changed: candidates.filter(
        (dated) => dated !== null && changedSince({ bodyChangedAt: dated.body_changed_at }, inputs.cutoff),
      ).length,
      oldest_body_changed_at: taskDates[0] ?? null,
      newest_body_changed_at: taskDates.at(-1) ?? null,
    },
  };
}

function datedBody(row: BodyHistoryRow | undefined): BodyDateFields | null {
  if (row?.bodyCommit == null || row.bodyChangedAt === null) return null;
  return { body_commit: row.bodyCommit, body_changed_at: bodyDateText(row.bodyChangedAt) };
}
