import type { BodyHistoryRow, Catalog, CatalogFunction } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { Checkout } from '@repocod/runner';
import { BODY_BLAME_ARGS, blameFunctionBodies, changedSince, checkCutoffBeforeBase, git } from '@repocod/runner';

/** What dating needs of a prepared repository: its name and its checkout (a clone with history). */
export interface DatedCheckout {
  readonly entry: { readonly name: string };
  readonly checkout: Checkout;
}

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
  const key = { repository: prepared.entry.name, baseCommit: prepared.checkout.baseCommit, blameArgs: BLAME_KEY };
  const stored = await catalog.bodyHistory(key);
  const missing = functions.filter((fn) => !stored.has(fn.functionId));
  if (missing.length === 0) return stored;
  const blamed = await blameFunctionBodies(prepared.checkout.path, prepared.checkout.baseCommit, missing);
  const rows = missing.map((fn): BodyHistoryRow => {
    const history = blamed.get(fn) ?? null;
    return {
      functionId: fn.functionId,
      bodyCommit: history?.bodyCommit ?? null,
      bodyChangedAt: history === null ? null : new Date(history.bodyChangedAt),
    };
  });
  await catalog.saveBodyHistory(key, rows);
  for (const row of rows) stored.set(row.functionId, row);
  return stored;
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
  return (await catalog.bodyHistory({ repository, baseCommit, blameArgs: BLAME_KEY })).get(functionId) ?? null;
}

/** Every stored body date of a repository at a base commit, by function id (what `repocod report --diff` reads). */
export function storedBodyDates(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
): Promise<Map<string, BodyHistoryRow>> {
  return catalog.bodyHistory({ repository, baseCommit, blameArgs: BLAME_KEY });
}
