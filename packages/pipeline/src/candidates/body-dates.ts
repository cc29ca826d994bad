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

/** What dating needs of a prepared repository: its name and its checkout (a clone with history). */
export interface DatedCheckout {
  readonly entry: { readonly name: string };
  readonly checkout: Checkout;
}

/** How a body is dated, as a fresh version's records and its release say it. */
export const BODY_DATED_BY = `git ${BODY_BLAME_ARGS.join(' ')} at the base commit: the author time of the \
body's newest code line`;

/** The blame options a stored date was made with, part of its key: another way of dating never reuses a row. */
const BLAME_KEY = BODY_BLAME_ARGS.join(' ');

/**
 * When each function's body last changed at the checkout's base commit (runner's blameFunctionBodies), by function
 * id: read from the catalog where these functions were dated before at this commit, blamed and stored otherwise (a
 * large repository's blame takes minutes, and every stage that filters by date asks again).
 */
export async function bodyDates(
  catalog: Catalog,
  prepared: DatedCheckout,
  functions: readonly CatalogFunction[],
): Promise<Map<string, BodyHistoryRow>> {
  const key = bodyHistoryKey(prepared.entry.name, prepared.checkout.baseCommit);
  const stored = await catalog.bodyHistory(key);
  const missing = functions.filter((fn) => !stored.has(fn.functionId));
  if (missing.length === 0) return stored;
  const rows = await blamedBodyRows(prepared.checkout.path, prepared.checkout.baseCommit, missing);
  await catalog.saveBodyHistory(key, rows);
  for (const row of rows) stored.set(row.functionId, row);
  return stored;
}

/** The functions' bodies blamed at `commit` in the clone at `path`, as the catalog's rows (null where no code line). */
export async function blamedBodyRows(
  path: string,
  commit: string,
  functions: readonly CatalogFunction[],
): Promise<BodyHistoryRow[]> {
  const blamed = await blameFunctionBodies(path, commit, functions);
  return functions.map((fn): BodyHistoryRow => {
    const history = blamed.get(fn) ?? null;
    return {
      functionId: fn.functionId,
      bodyCommit: history?.bodyCommit ?? null,
      bodyChangedAt: history === null ? null : new Date(history.bodyChangedAt),
    };
  });
}

/**
 * The functions whose body was written or changed strictly after `cutoff` (UTC, as runner's parseChangedSince gives
 * it), by their body's newest code line. A cutoff at or after the base commit, and a checkout without history (a
 * folder or a release's sdist snapshotted as one commit, whose every line would be dated at the snapshot), are usage
 * errors naming the repository.
 */
export async function changedSinceCutoff<F extends CatalogFunction>(
  catalog: Catalog,
  prepared: DatedCheckout,
  functions: readonly F[],
  cutoff: string,
): Promise<F[]> {
  const { checkout, entry } = prepared;
  checkCutoffBeforeBase(cutoff, {
    repository: entry.name,
    commit: checkout.baseCommit,
    committedAt: checkout.commitTimestamp,
  });
  const commits = Number(await git(checkout.path, ['rev-list', '--count', checkout.baseCommit]));
  if (commits < 2)
    throw new RepocodError(
      'usage',
      `--changed-since ${cutoff}: ${entry.name} at ${checkout.baseCommit.slice(0, 12)} has no history (a snapshot of \
its files as one commit), so no body can be dated; give a git clone with its history (--source ${entry.name}=CLONE)`,
    );
  const dates = await bodyDates(catalog, prepared, functions);
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
 * The stored dates of a repository's bodies at a base commit (as this tool blames them), by function id. History is
 * the project's, keyed by commit: an era's catalog name (`flask@2ac89889f4cc`) finds it under `flask`.
 */
export function storedBodyDates(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
): Promise<Map<string, BodyHistoryRow>> {
  return catalog.bodyHistory(bodyHistoryKey(projectName(repository), baseCommit));
}

/** Where the catalog keeps the body dates of a repository at a base commit, made with today's blame options. */
export function bodyHistoryKey(repository: string, baseCommit: string): BodyHistoryKey {
  return { repository, baseCommit, blameArgs: BLAME_KEY };
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

/**
 * The stored body date of each task that has one, by instance id (its function at its base commit): a task whose
 * function was never dated, or whose body has no code line to date, has none.
 */
export async function storedTaskBodyDates(
  catalog: Catalog,
  tasks: readonly {
    readonly instanceId: string;
    readonly repository: string;
    readonly baseCommit: string;
    readonly functionId: string;
  }[],
): Promise<Map<string, BodyDate>> {
  const dates = new Map<string, BodyDate>();
  const byKey = new Map<string, Map<string, BodyHistoryRow>>();
  for (const task of tasks) {
    // Body history is the project's, keyed by commit: an era's tasks find it under the manifest name (catalog-name.ts).
    const project = projectName(task.repository);
    const keyText = `${project}\n${task.baseCommit}`;
    let rows = byKey.get(keyText);
    if (rows === undefined) {
      rows = await catalog.bodyHistory(bodyHistoryKey(project, task.baseCommit));
      byKey.set(keyText, rows);
    }
    const row = rows.get(task.functionId);
    if (row !== undefined && row.bodyCommit !== null && row.bodyChangedAt !== null)
      dates.set(task.instanceId, { bodyCommit: row.bodyCommit, bodyChangedAt: bodyDateText(row.bodyChangedAt) });
  }
  return dates;
}
