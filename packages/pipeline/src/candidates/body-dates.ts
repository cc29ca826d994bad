import type { BodyHistoryKey, BodyHistoryRow, Catalog, CatalogFunction } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { Checkout } from '@repocod/runner';
import {
  BODY_BLAME_ARGS,
  blameFunctionBodies,
  changedSince,
  checkCutoffBeforeBase,
  git,
  projectName,
  utcTimestamp,
} from '@repocod/runner';
import { BLAME_DATING, type BodyDating, chooseDating, datingKeyText } from './body-dating.js';
import type { DatedAgainst, ReleaseDatings } from './dated-against.js';
import { checkAroundCutoff, releaseDiffDating } from './dated-against.js';
import { DatedAgainstHistoryError } from './dated-against-errors.js';
import { releaseDiffRows } from './release-diff-dates.js';

/** What dating needs of a prepared repository: its name and its checkout (a clone with history). */
export interface DatedCheckout {
  readonly entry: { readonly name: string };
  readonly checkout: Checkout;
}

/** How a body is dated, as a fresh version's records and its release say it. */
export const BODY_DATED_BY =
  `git ${BODY_BLAME_ARGS.join(' ')} at the base commit: the author ` + `time of the body's newest code line`;

/** How a repository dated by release diff says it in a release's and a record's `dated_by` (body-dating.ts). */
export const RELEASE_DIFF_DATED_BY = 'release-diff';

/** A dating's `dated_by` text: the blame command, or `release-diff`. */
export function datedByText(dating: BodyDating): string {
  return dating.kind === 'blame' ? BODY_DATED_BY : RELEASE_DIFF_DATED_BY;
}

/**
 * When each function's body last changed at the checkout's base commit, by function id: by runner's
 * blameFunctionBodies, or, for a source without history given `dated` (`--dated-against`), by release diff against
 * the older release (release-diff-dates.ts). Blame's dates are read from the catalog where these functions were
 * blamed before at this commit, and blamed and stored otherwise (a large repository's blame takes minutes, and every
 * stage that filters by date asks again). A release diff is made and stored again each time: it parses only the
 * older release's files of these functions (seconds), and storing it again makes it the repository's latest dating
 * at this commit, the one publish and record read (body-dating.ts's chooseDating), even when an earlier dating
 * against another release is stored too.
 */
export async function bodyDates(
  catalog: Catalog,
  prepared: DatedCheckout,
  functions: readonly CatalogFunction[],
  dated?: DatedAgainst,
  cutoff?: string,
): Promise<Map<string, BodyHistoryRow>> {
  const dating = dated === undefined ? BLAME_DATING : releaseDiffDating(dated);
  const key = bodyHistoryKey(prepared.entry.name, prepared.checkout.baseCommit, dating);
  const stored = await catalog.bodyHistory(key);
  const missing = dated === undefined ? functions.filter((fn) => !stored.has(fn.functionId)) : functions;
  if (missing.length === 0) return stored;
  const rows =
    dated === undefined
      ? await blamedBodyRows(prepared.checkout.path, prepared.checkout.baseCommit, missing, cutoff)
      : await releaseDiffRows(dated, missing);
  await catalog.saveBodyHistory(key, rows);
  for (const row of rows) stored.set(row.functionId, row);
  return stored;
}

/**
 * The functions' bodies blamed at `commit` in the clone at `path`, as the catalog's rows: the date null where the body
 * has no code line, and where blame could give only an upper bound (`exact: false`, a clone that lacks blobs that
 * blame reads: blame-bodies.ts), so that such a body is never counted as changed after any cutoff; its commit stays.
 * Given `cutoff`, such a blame may go over the history after the last commit before it alone (blame-bodies.ts's
 * `since`); a body older than that is stored undated, so a later question with an earlier cutoff never takes the
 * boundary's date for the body's.
 */
export async function blamedBodyRows(
  path: string,
  commit: string,
  functions: readonly CatalogFunction[],
  cutoff?: string,
): Promise<BodyHistoryRow[]> {
  const since = cutoff === undefined ? undefined : await lastCommitBefore(path, commit, cutoff);
  const blamed = await blameFunctionBodies(path, commit, functions, since === undefined ? {} : { since });
  return functions.map((fn): BodyHistoryRow => {
    const history = blamed.get(fn) ?? null;
    return {
      functionId: fn.functionId,
      bodyCommit: history?.bodyCommit ?? null,
      bodyChangedAt: history === null || !history.exact ? null : new Date(history.bodyChangedAt),
    };
  });
}

/** The last commit on `commit`'s first-parent line committed before `cutoff`: a blame range's boundary, if any. */
async function lastCommitBefore(path: string, commit: string, cutoff: string): Promise<string | undefined> {
  const found = await git(path, ['rev-list', '-1', '--first-parent', `--before=${cutoff}`, commit, '--']);
  return found === '' ? undefined : found;
}

/**
 * The functions whose body was written or changed strictly after `cutoff` (UTC, as runner's parseChangedSince gives
 * it), by their body's newest code line, or, for a repository `datings` names (`--dated-against`), by release diff.
 * Usage errors naming the repository: a checkout without history (a folder or a release's sdist snapshotted as one
 * commit, whose every line would be dated at the snapshot) not dated by release diff, and one dated by release diff
 * that has history (DatedAgainstHistoryError); for blame a cutoff at or after the base commit, for a release diff an
 * older release not before the cutoff or a snapshot not after it (checkAroundCutoff). Each is refused before
 * anything is dated or stored.
 */
export async function changedSinceCutoff<F extends CatalogFunction>(
  catalog: Catalog,
  prepared: DatedCheckout,
  functions: readonly F[],
  cutoff: string,
  datings?: ReleaseDatings,
): Promise<F[]> {
  const { checkout, entry } = prepared;
  const dated = datings?.get(entry.name);
  const commits = Number(await git(checkout.path, ['rev-list', '--count', checkout.baseCommit]));
  if (dated !== undefined) {
    if (commits >= 2) throw new DatedAgainstHistoryError(entry.name, checkout.path);
    checkAroundCutoff(dated, cutoff);
  } else {
    if (commits < 2)
      throw new RepocodError(
        'usage',
        [
          `--changed-since ${cutoff}: ${entry.name} at ${checkout.baseCommit.slice(0, 12)} has no history (a snapshot`,
          'of its files as one commit), so no body can be dated by git blame; give a git clone with its history',
          `(--source ${entry.name}=CLONE), or date it against the last release before the cutoff`,
          `(--dated-against ${entry.name}=OLDER_SDIST)`,
        ].join(' '),
      );
    checkCutoffBeforeBase(cutoff, {
      repository: entry.name,
      commit: checkout.baseCommit,
      committedAt: checkout.commitTimestamp,
    });
  }
  const dates = await bodyDates(catalog, prepared, functions, dated, cutoff);
  return functions.filter((fn) => {
    const row = dates.get(fn.functionId);
    const changedAt = row?.bodyChangedAt ?? null;
    return changedSince(changedAt === null ? null : { bodyChangedAt: changedAt.toISOString() }, cutoff);
  });
}

/** The stored date of one function's body at a base commit (`repocod show`), or null when it was never dated. */
export async function storedBodyDate(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
  functionId: string,
): Promise<BodyHistoryRow | null> {
  return (await storedBodyDates(catalog, repository, baseCommit)).get(functionId) ?? null;
}

/**
 * The stored dates of a repository's bodies at a base commit, by function id, under the way they were dated there
 * (storedDating). History is the project's, keyed by commit: an era's catalog name (`flask@2ac89889f4cc`) finds it
 * under `flask`.
 */
export async function storedBodyDates(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
): Promise<Map<string, BodyHistoryRow>> {
  const dating = await storedDating(catalog, repository, baseCommit);
  return dating === null ? new Map() : catalog.bodyHistory(bodyHistoryKey(projectName(repository), baseCommit, dating));
}

/**
 * How a repository's bodies were dated at a base commit, read from the keys of its stored dates (body-dating.ts's
 * chooseDating); null when they never were. What publish, record and show know of it without being told again.
 */
export async function storedDating(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
): Promise<BodyDating | null> {
  return chooseDating(await catalog.bodyHistoryDatings(projectName(repository), baseCommit));
}

/** Where the catalog keeps the body dates of a repository at a base commit made one way (default: today's blame). */
export function bodyHistoryKey(
  repository: string,
  baseCommit: string,
  dating: BodyDating = BLAME_DATING,
): BodyHistoryKey {
  return { repository, baseCommit, blameArgs: datingKeyText(dating) };
}

/** A body's date as a release and `repocod show` write it: UTC `YYYY-MM-DDTHH:MM:SSZ` (git's times are seconds). */
export function bodyDateText(changedAt: Date): string {
  return utcTimestamp(changedAt.getTime());
}

/** A dated body as a release writes it: its commit, and its date as UTC `YYYY-MM-DDTHH:MM:SSZ`. */
export interface BodyDate {
  readonly bodyCommit: string;
  readonly bodyChangedAt: string;
}

/** What storedTaskBodyDates needs of a task. */
export interface DatedTask {
  readonly instanceId: string;
  readonly repository: string;
  readonly baseCommit: string;
  readonly functionId: string;
}

/**
 * The stored body date of each task that has one, by instance id (its function at its base commit, under the way its
 * repository was dated there): a task whose function was never dated, or whose body has no code line to date, has
 * none.
 */
export async function storedTaskBodyDates(
  catalog: Catalog,
  tasks: readonly DatedTask[],
): Promise<Map<string, BodyDate>> {
  const dates = new Map<string, BodyDate>();
  const byKey = new Map<string, Map<string, BodyHistoryRow>>();
  for (const task of tasks) {
    // Body history is the project's, keyed by commit: an era's tasks find it under the manifest name (catalog-name.ts).
    const keyText = `${projectName(task.repository)}\n${task.baseCommit}`;
    let rows = byKey.get(keyText);
    if (rows === undefined) {
      rows = await storedBodyDates(catalog, task.repository, task.baseCommit);
      byKey.set(keyText, rows);
    }
    const row = rows.get(task.functionId);
    if (row !== undefined && row.bodyCommit !== null && row.bodyChangedAt !== null)
      dates.set(task.instanceId, { bodyCommit: row.bodyCommit, bodyChangedAt: bodyDateText(row.bodyChangedAt) });
  }
  return dates;
}

/**
 * How each task's repository was dated at its base commit, by the task's repository (its catalog name: a release
 * and a record take one era of each): repositories never dated are left out.
 */
export async function storedTaskDatings(
  catalog: Catalog,
  tasks: readonly Pick<DatedTask, 'repository' | 'baseCommit'>[],
): Promise<Map<string, BodyDating>> {
  const datings = new Map<string, BodyDating>();
  const seen = new Set<string>();
  for (const task of tasks) {
    const keyText = `${task.repository}\n${task.baseCommit}`;
    if (seen.has(keyText)) continue;
    seen.add(keyText);
    const dating = await storedDating(catalog, task.repository, task.baseCommit);
    if (dating !== null) datings.set(task.repository, dating);
  }
  return datings;
}
