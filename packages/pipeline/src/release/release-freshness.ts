import type { StoredTask } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { VersionFile } from '@repocod/publish';
import { utcTimestamp } from '@repocod/runner';
import type { BodyDate } from '../candidates/body-dates.js';
import { BODY_DATED_BY, datedByText } from '../candidates/body-dates.js';
import type { BodyDating, ReleaseDiffRecord } from '../candidates/body-dating.js';
import { BLAME_DATING, releaseDiffRecord } from '../candidates/body-dating.js';

/**
 * What a version built with `--changed-since DATE` promises, as `<version>/freshness.json` says it: every released
 * task's body was written or changed after the cutoff, as of each repository's base commit. A version without a
 * cutoff has no such file (nor the card's section), so a version built before fresh versions keeps its bytes.
 */
export interface ReleaseFreshness {
  /** The cutoff, UTC `YYYY-MM-DDTHH:MM:SSZ` (as parseChangedSince gives it). */
  readonly changed_since: string;
  /**
   * How a body was dated: the blame command, at the base commit, over the body's code lines; `release-diff` when
   * every repository was dated by release diff; PER_REPOSITORY_DATED_BY when the ways differ (each repository says
   * its own whenever one was dated by release diff).
   */
  readonly dated_by: string;
  readonly repositories: readonly FreshRepository[];
}

/** One repository of a fresh version: its base commit and the span of its tasks' body dates. */
export interface FreshRepository {
  /** The manifest's name. */
  readonly repository: string;
  /** `owner/name`, as the `repo` column has it. */
  readonly repo: string;
  readonly base_commit: string;
  /** The base commit's committer time, UTC. */
  readonly base_committed_at: string;
  readonly tasks: number;
  readonly oldest_body_changed_at: string;
  readonly newest_body_changed_at: string;
  /**
   * Only when some repository of the version was dated by release diff: how this one was, the blame command (the
   * top-level text of a version without release diffs) or `release-diff`.
   */
  readonly dated_by?: string;
  /** A repository dated by release diff: the two releases compared (body-dating.ts's ReleaseDiffRecord). */
  readonly release_diff?: ReleaseDiffRecord;
}

/** The top-level `dated_by` of a version some repository of which was dated by release diff. */
export const PER_REPOSITORY_DATED_BY = 'per repository: see repositories[].dated_by';

/** Beside a fresh version's Parquet: its cutoff and, per repository, its base commit and body dates. */
export const FRESHNESS_RECORD = 'freshness.json';

/** A released task that does not keep a version's promise: its body has no date, or one not after the cutoff. */
export interface StaleTask {
  readonly instanceId: string;
  /** null when the task's body was never dated. */
  readonly bodyChangedAt: string | null;
}

/**
 * A version published with a cutoff some of whose tasks' bodies did not change after it: a usage error naming the
 * cutoff, those tasks and what to do (a selection holds every task of the catalog that fits its spec, and a catalog
 * may hold tasks built without the cutoff).
 */
export class NotChangedSinceError extends RepocodError {
  readonly cutoff: string;
  readonly tasks: readonly StaleTask[];

  constructor(cutoff: string, tasks: readonly StaleTask[]) {
    const named = tasks
      .slice(0, 5)
      .map((task) => `${task.instanceId} (${task.bodyChangedAt === null ? 'never dated' : task.bodyChangedAt})`);
    super(
      'usage',
      `--changed-since ${cutoff}: ${tasks.length} released task(s) have no body changed after it: ` +
        `${named.join(', ')}${tasks.length > 5 ? ', …' : ''}; make their tasks with \`repocod tasks --changed-since ` +
        `${cutoff}\` ` +
        `(it dates every body), select without them (--filter), or publish with an earlier --changed-since`,
    );
    this.name = 'NotChangedSinceError';
    this.cutoff = cutoff;
    this.tasks = tasks;
  }
}

/**
 * The freshness of a version published with `cutoff`, from its released tasks and their stored body dates (by
 * instance id). Every task must have a body changed strictly after the cutoff, the rule `--changed-since` selects
 * by (runner's changedSince); otherwise a NotChangedSinceError.
 */
export function releaseFreshness(
  cutoff: string,
  tasks: readonly StoredTask[],
  dates: ReadonlyMap<string, BodyDate>,
  datings: ReadonlyMap<string, BodyDating> = new Map(),
): ReleaseFreshness {
  const stale = tasks
    .map((task) => ({ instanceId: task.instanceId, bodyChangedAt: dates.get(task.instanceId)?.bodyChangedAt ?? null }))
    .filter((task) => task.bodyChangedAt === null || Date.parse(task.bodyChangedAt) <= Date.parse(cutoff));
  if (stale.length > 0) throw new NotChangedSinceError(cutoff, stale);
  const groups = new Map<string, StoredTask[]>();
  for (const task of tasks) {
    const key = `${task.repository}\n${task.baseCommit}`;
    groups.set(key, [...(groups.get(key) ?? []), task]);
  }
  // A version of git-dated repositories alone is written as before release diffs: the same bytes.
  const perRepository = [...groups.values()].some(
    (group) => datings.get((group[0] as StoredTask).repository)?.kind === 'release-diff',
  );
  const repositories = [...groups.values()].map((group): FreshRepository => {
    const first = group[0] as StoredTask;
    const changed = group.map((task) => dates.get(task.instanceId)?.bodyChangedAt as string).sort();
    const dating = datings.get(first.repository) ?? BLAME_DATING;
    return {
      repository: first.repository,
      repo: first.repo,
      base_commit: first.baseCommit,
      base_committed_at: utcTimestamp(Date.parse(first.baseCommitTimestamp)),
      tasks: group.length,
      oldest_body_changed_at: changed[0] as string,
      newest_body_changed_at: changed.at(-1) as string,
      ...(perRepository ? { dated_by: datedByText(dating) } : {}),
      ...(dating.kind === 'release-diff' ? { release_diff: releaseDiffRecord(dating) } : {}),
    };
  });
  repositories.sort((a, b) => (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : 0));
  return {
    changed_since: cutoff,
    dated_by: topDatedBy(repositories),
    repositories,
  };
}

/** `<version>/freshness.json`. */
export function freshnessRecord(freshness: ReleaseFreshness): VersionFile {
  return { name: FRESHNESS_RECORD, content: `${JSON.stringify(freshness, null, 2)}\n` };
}

/**
 * The top-level `dated_by`: the one way every repository was dated (the blame command, or `release-diff`), else
 * PER_REPOSITORY_DATED_BY, each repository then saying its own.
 */
function topDatedBy(repositories: readonly FreshRepository[]): string {
  const ways = new Set(repositories.map((entry) => entry.dated_by ?? BODY_DATED_BY));
  return ways.size <= 1 ? ([...ways][0] ?? BODY_DATED_BY) : PER_REPOSITORY_DATED_BY;
}
