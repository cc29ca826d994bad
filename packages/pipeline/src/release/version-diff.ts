import { readCurrentVerdicts } from '@repocod/validate';
import type { Catalog, CatalogFunction, StoredTask } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import { projectName, releaseInstanceId } from '@repocod/runner';
import { storedBodyDates } from '../candidates/body-dates.js';
import { catalogMiningOutcomes, functionKey } from '../candidates/mining-outcomes.js';
import type { AddedReason, BodyDate, RemovedReason, RemovedTaskFacts } from './version-change-reasons.js';
import { ADDED_REASONS, addedReason, keptChange, REMOVED_REASONS, removedReason } from './version-change-reasons.js';
import type { VersionSide, VersionTask } from './version-side.js';
import { readVersionSide } from './version-side.js';

/** A version's cutoff and where it comes from. */
export interface VersionCutoff {
  /** UTC ISO; null when not known. */
  readonly cutoff: string | null;
  /** `release`: the version's freshness.json; `option`: given on the command line (--cutoff); null with none. */
  readonly from: 'release' | 'option' | null;
}

/** One side of the diff as the report shows it: its cutoff and, per repository, its base commit and tasks. */
export interface VersionSummary extends VersionCutoff {
  readonly version: string;
  readonly tasks: number;
  readonly repositories: readonly {
    readonly repository: string;
    readonly baseCommit: string;
    readonly baseCommitAt: string;
    readonly tasks: number;
  }[];
}

export interface KeptTask {
  readonly instanceId: string;
  readonly repository: string;
  readonly change: 'same-body' | 'changed-body';
  /** B's instance id, when the function kept its place but not its id. */
  readonly instanceIdInB?: string;
}

export interface ChangedTask<R> {
  readonly instanceId: string;
  readonly repository: string;
  readonly reason: R;
  readonly detail: string;
}

export interface RepositoryChanges {
  readonly repository: string;
  readonly inA: number;
  readonly inB: number;
  readonly sameBody: number;
  readonly changedBody: number;
  readonly added: number;
  readonly removed: number;
}

/** `repocod report --diff A B`: what changed from version A to version B, and why. */
export interface VersionDiffReport {
  readonly a: VersionSummary;
  readonly b: VersionSummary;
  readonly kept: readonly KeptTask[];
  readonly added: readonly ChangedTask<AddedReason>[];
  readonly removed: readonly ChangedTask<RemovedReason>[];
  readonly repositories: readonly RepositoryChanges[];
  /** Every reason with its count, in rule order (zeros included, so the JSON always has the same keys). */
  readonly removedByReason: Readonly<Record<RemovedReason, number>>;
  readonly addedByReason: Readonly<Record<AddedReason, number>>;
}

export interface VersionDiffOptions {
  /**
   * B's `--changed-since` cutoff (UTC ISO), for the rule of a body unchanged since it; default: the one B's
   * freshness.json records (a version published with --changed-since).
   */
  readonly cutoff?: string;
  /** How the catalog is named in an error (its path). */
  readonly catalogName?: string;
}

/**
 * Version A against version B: the tasks kept (same instance id, or the same file and qualified name), added and
 * removed, each added or removed task with the first reason that explains it (version-change-reasons.ts), decided
 * from the catalog that built B. A catalog that does not hold B's tasks at B's base commits is refused: its reasons
 * would be about another build.
 */
export async function versionDiff(
  catalog: Catalog,
  a: VersionSide,
  b: VersionSide,
  options: VersionDiffOptions = {},
): Promise<VersionDiffReport> {
  const cutoff = options.cutoff ?? b.cutoff;
  const facts = await catalogFacts(catalog, b, options.catalogName ?? 'the catalog');

  const inB = new Map(b.tasks.map((task) => [task.instanceId, task]));
  const byFunctionB = new Map(b.tasks.flatMap((task) => (place(task) === null ? [] : [[place(task), task]])));
  const kept: KeptTask[] = [];
  const keptInB = new Set<string>();
  const removed: ChangedTask<RemovedReason>[] = [];
  for (const task of a.tasks) {
    const match = inB.get(task.instanceId) ?? byFunctionB.get(place(task) ?? '') ?? null;
    if (match !== null && !keptInB.has(match.instanceId)) {
      keptInB.add(match.instanceId);
      kept.push({
        instanceId: task.instanceId,
        repository: task.repository,
        change: keptChange(task.solution, match.solution),
        ...(match.instanceId === task.instanceId ? {} : { instanceIdInB: match.instanceId }),
      });
      continue;
    }
    const verdict = removedReason(await facts.removed(task, cutoff));
    removed.push({ instanceId: task.instanceId, repository: task.repository, ...verdict });
  }

  const aBase = baseCommits(a);
  const added: ChangedTask<AddedReason>[] = [];
  for (const task of b.tasks) {
    if (keptInB.has(task.instanceId)) continue;
    const base = aBase.get(task.repository) ?? null;
    const verdict = addedReason({
      repositoryInA: base !== null,
      aBaseCommit: base === null ? null : { commit: base.baseCommit, at: base.baseCommitAt },
      body: await facts.body(task.repository, task),
    });
    added.push({ instanceId: task.instanceId, repository: task.repository, ...verdict });
  }

  const names = [...new Set([...a.tasks, ...b.tasks].map((task) => task.repository))].sort();
  const count = <T extends { repository: string }>(list: readonly T[], repository: string, keep = (_: T) => true) =>
    list.filter((entry) => entry.repository === repository && keep(entry)).length;
  const repositories = names.map(
    (repository): RepositoryChanges => ({
      repository,
      inA: count(a.tasks, repository),
      inB: count(b.tasks, repository),
      sameBody: count(kept, repository, (task) => task.change === 'same-body'),
      changedBody: count(kept, repository, (task) => task.change === 'changed-body'),
      added: count(added, repository),
      removed: count(removed, repository),
    }),
  );
  const totals = <R extends string>(reasons: readonly R[], list: readonly ChangedTask<R>[]): Record<R, number> =>
    Object.fromEntries(
      reasons.map((reason) => [reason, list.filter((task) => task.reason === reason).length]),
    ) as Record<R, number>;
  return {
    a: summary(a, { cutoff: a.cutoff, from: a.cutoff === null ? null : 'release' }),
    b: summary(b, { cutoff, from: options.cutoff !== undefined ? 'option' : cutoff === null ? null : 'release' }),
    kept,
    added,
    removed,
    repositories,
    removedByReason: totals(REMOVED_REASONS, removed),
    addedByReason: totals(ADDED_REASONS, added),
  };
}

/** Where a task's function is (`repository:file::qualname`); null without tasks.jsonl. */
function place(task: VersionTask): string | null {
  return task.file === null || task.qualname === null
    ? null
    : `${task.repository}:${functionKey({ file: task.file, qualname: task.qualname })}`;
}

function baseCommits(side: VersionSide): Map<string, { baseCommit: string; baseCommitAt: string; tasks: number }> {
  const bases = new Map<string, { baseCommit: string; baseCommitAt: string; tasks: number }>();
  for (const task of side.tasks) {
    const seen = bases.get(task.repository);
    bases.set(task.repository, {
      baseCommit: task.baseCommit,
      baseCommitAt: task.baseCommitTimestamp,
      tasks: (seen?.tasks ?? 0) + 1,
    });
  }
  return bases;
}

function summary(side: VersionSide, cutoff: VersionCutoff): VersionSummary {
  return {
    version: side.version,
    ...cutoff,
    tasks: side.tasks.length,
    repositories: [...baseCommits(side)]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([repository, base]) => ({ repository, ...base })),
  };
}

interface RepositoryFacts {
  readonly functions: ReadonlyMap<string, CatalogFunction>;
  readonly bodies: ReadonlyMap<string, { bodyCommit: string | null; bodyChangedAt: Date | null }>;
  readonly mining: ReadonlyMap<string, boolean>;
  readonly tasks: ReadonlyMap<string, StoredTask>;
}

/** The catalog's facts about B, read per repository once, after checking that the catalog built B. */
async function catalogFacts(catalog: Catalog, b: VersionSide, catalogName: string) {
  const bBase = baseCommits(b);
  const allTasks = await catalog.tasks();
  // B names repositories by their manifest name; the catalog keeps B's commit of each under its catalog name.
  const catalogNames = new Map<string, string>();
  for (const [repository, base] of bBase) {
    const stored = allTasks.filter((task) => projectName(task.repository) === repository);
    const atBase = stored.find((task) => task.baseCommit === base.baseCommit);
    if (atBase !== undefined) catalogNames.set(repository, atBase.repository);
    else {
      const holds = [...new Set(stored.map((task) => task.baseCommit.slice(0, 12)))].join(', ');
      throw new RepocodError(
        'usage',
        `${catalogName} did not build version ${b.version}: it holds ${
          holds === '' ? `no task of ${repository}` : `${repository}'s tasks at ${holds}`
        }, and version ${b.version} has ${repository} at ${base.baseCommit.slice(0, 12)}; give --db the catalog that ` +
          `built ${b.version}`,
      );
    }
  }
  const verdicts = await readCurrentVerdicts(catalog);
  const cache = new Map<string, Promise<RepositoryFacts>>();
  const repository = (name: string): Promise<RepositoryFacts> => {
    let found = cache.get(name);
    if (found === undefined) {
      found = (async () => {
        const inCatalog = catalogNames.get(name) ?? name;
        const functions = await catalog.functions(inCatalog);
        const tasks = allTasks.filter((task) => task.repository === inCatalog);
        // B's base commit; for a repository B has no task of, the one the catalog built its tasks at.
        const baseCommit = bBase.get(name)?.baseCommit ?? tasks[0]?.baseCommit ?? null;
        return {
          functions: new Map(functions.map((fn) => [functionKey(fn), fn])),
          bodies: baseCommit === null ? new Map() : await storedBodyDates(catalog, name, baseCommit),
          mining: await catalogMiningOutcomes(catalog, inCatalog),
          tasks: new Map(tasks.map((task) => [functionKey(task), task])),
        };
      })();
      cache.set(name, found);
    }
    return found;
  };
  const keyOf = (task: VersionTask, known: RepositoryFacts): string | null => {
    if (task.file !== null && task.qualname !== null) return functionKey({ file: task.file, qualname: task.qualname });
    // A version without tasks.jsonl: the function of the catalog's task of that instance id, if any.
    const stored = [...known.tasks.values()].find(
      (candidate) => releaseInstanceId(candidate.instanceId) === task.instanceId,
    );
    return stored === undefined ? null : functionKey(stored);
  };
  const bodyOf = (known: RepositoryFacts, fn: CatalogFunction | undefined): BodyDate => {
    const row = fn === undefined ? undefined : known.bodies.get(fn.functionId);
    return row === undefined
      ? { kind: 'undated' }
      : { kind: 'dated', changedAt: row.bodyChangedAt?.toISOString() ?? null, commit: row.bodyCommit };
  };
  return {
    async removed(task: VersionTask, cutoff: string | null): Promise<RemovedTaskFacts> {
      const known = await repository(task.repository);
      const key = keyOf(task, known);
      const fn = key === null ? undefined : known.functions.get(key);
      const mined = key === null ? undefined : known.mining.get(key);
      const stored = key === null ? undefined : known.tasks.get(key);
      // B's records name the task as the release does; the catalog's verdicts by the catalog's id.
      const released = stored === undefined ? undefined : releaseInstanceId(stored.instanceId);
      const status =
        stored === undefined || released === undefined
          ? undefined
          : (b.selected.get(released) ?? verdicts.get(stored.instanceId));
      return {
        repositoryBuilt: known.functions.size > 0,
        function: fn === undefined ? null : { isCandidate: fn.isCandidate, body: bodyOf(known, fn) },
        cutoff,
        mining: mined === undefined ? 'not-mined' : mined ? 'tests' : 'no-tests',
        task: stored === undefined ? 'none' : stored.checksPassed ? 'built' : 'checks-failed',
        verdict: status === 'passed' || status === 'failed' || status === 'infra-error' ? status : null,
        selectedInB: released !== undefined && b.selected.has(released),
      };
    },
    async body(name: string, task: VersionTask): Promise<BodyDate> {
      const known = await repository(name);
      const key = keyOf(task, known);
      return bodyOf(known, key === null ? undefined : known.functions.get(key));
    },
  };
}

/** `repocod report --diff A B`: two versions of a release folder, the reasons from the catalog that built B. */
export async function releaseVersionDiff(
  catalog: Catalog,
  folder: string,
  versions: { readonly a: string; readonly b: string },
  options: VersionDiffOptions = {},
): Promise<VersionDiffReport> {
  if (versions.a === versions.b)
    throw new RepocodError('usage', `--diff ${versions.a} ${versions.b}: give two different versions`);
  return versionDiff(catalog, readVersionSide(folder, versions.a), readVersionSide(folder, versions.b), options);
}
