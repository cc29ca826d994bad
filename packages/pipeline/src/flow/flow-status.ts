import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import type { ManifestEntry } from '@repocod/runner';
import { readEnvironmentMarker } from '@repocod/runner';
import type { FindRepositoryOptions } from '../steps/find-repository.js';
import { listRepositories } from '../steps/find-repository.js';
import { releasedVersions } from '../release/released-versions.js';
import { validationOverview } from '../reports/curation-view.js';

/** What is done for one repository, read from the state folder and the catalog without running anything. */
export interface RepositoryStatus {
  readonly name: string;
  /** The url, or the local folder it is taken from. */
  readonly origin: string;
  /** The manifest's base commit (null for a local folder snapshotted on first use). */
  readonly baseCommit: string | null;
  /** The commit a folder that is not a git repository (a release's sdist) stands in for; see stand-in-source.ts. */
  readonly standInFor: string | null;
  readonly checkedOut: boolean;
  /** A finished environment of this repository is on disk (any recipe). */
  readonly environment: boolean;
  readonly functions: number;
  readonly candidates: number;
  /** Functions mined (any mining key), and those with relevant tests. */
  readonly mined: number;
  readonly withTests: number;
  readonly tasks: number;
}

export interface FlowStatus {
  readonly repositories: readonly RepositoryStatus[];
  readonly selection: { readonly selectionId: string; readonly tasks: number } | null;
  /** The latest selection's tasks by their current verdict. */
  readonly validation: {
    readonly passed: number;
    readonly failed: number;
    readonly infraError: number;
    readonly notValidated: number;
  };
  readonly releaseFolder: string;
  readonly releasedVersions: readonly { readonly version: string; readonly tasks: number }[];
}

export interface FlowStatusOptions extends FindRepositoryOptions {
  readonly stateRoot?: string;
  readonly out: string;
}

/** Where the flow stands: shown when the TUI starts (so a resumed session shows what is done) and by --status. */
export async function flowStatus(catalog: Catalog, options: FlowStatusOptions): Promise<FlowStatus> {
  const stateRoot = options.stateRoot ?? join(options.projectRoot, '.repocod');
  const counts = await countsByRepository(catalog);
  const repositories = listRepositories(options).map((entry): RepositoryStatus => {
    const of = counts.get(entry.name);
    return {
      name: entry.name,
      origin: entry.url ?? entry.source,
      baseCommit: entry.baseCommit,
      standInFor: entry.url === null ? (entry.standInFor ?? null) : null,
      checkedOut: existsSync(join(stateRoot, 'repos', entry.name, '.git')),
      environment: hasEnvironment(join(stateRoot, 'envs'), entry),
      functions: of?.functions ?? 0,
      candidates: of?.candidates ?? 0,
      mined: of?.mined ?? 0,
      withTests: of?.withTests ?? 0,
      tasks: of?.tasks ?? 0,
    };
  });
  const overview = await validationOverview(catalog);
  const byStatus = (status: string): number => overview.entries.filter((entry) => entry.status === status).length;
  return {
    repositories,
    selection:
      overview.selectionId === null ? null : { selectionId: overview.selectionId, tasks: overview.entries.length },
    validation: {
      passed: byStatus('passed'),
      failed: byStatus('failed'),
      infraError: byStatus('infra-error'),
      notValidated: byStatus('not-validated'),
    },
    releaseFolder: options.out,
    releasedVersions: releasedVersions(options.out).map((config) => ({
      version: config.version,
      tasks: config.numExamples,
    })),
  };
}

interface Counts {
  functions: number;
  candidates: number;
  mined: number;
  withTests: number;
  tasks: number;
}

async function countsByRepository(catalog: Catalog): Promise<Map<string, Counts>> {
  // One query: mining rows are counted per function over every mining key, newest answer winning.
  const result = await catalog.query(
    `
    WITH fns AS (SELECT repository, count(*) AS functions, count(*) FILTER (WHERE is_candidate) AS candidates FROM ` +
      `functions GROUP BY repository),
         mined AS (SELECT repository, count(DISTINCT function_id) AS mined, count(DISTINCT function_id) FILTER ` +
      `(WHERE ` +
      `status = 'tests') AS with_tests FROM relevant_tests GROUP BY repository),
         t AS (SELECT repository, count(*) AS tasks FROM tasks GROUP BY repository)
    SELECT r.name, coalesce(fns.functions, 0), coalesce(fns.candidates, 0), coalesce(mined.mined, 0), ` +
      `coalesce(mined.with_tests, 0), coalesce(t.tasks, 0)
      FROM repositories r LEFT JOIN fns ON fns.repository = r.name LEFT JOIN mined ON mined.repository = r.name LEFT ` +
      `JOIN t ON t.repository = r.name`,
  );
  const counts = new Map<string, Counts>();
  for (const row of result.rows) {
    const [name, functions, candidates, mined, withTests, tasks] = row;
    counts.set(String(name), {
      functions: Number(functions),
      candidates: Number(candidates),
      mined: Number(mined),
      withTests: Number(withTests),
      tasks: Number(tasks),
    });
  }
  return counts;
}

function hasEnvironment(envsRoot: string, entry: ManifestEntry): boolean {
  if (!existsSync(envsRoot)) return false;
  return readdirSync(envsRoot, { withFileTypes: true }).some(
    (item) =>
      item.isDirectory() &&
      item.name.startsWith(`${entry.name}-`) &&
      readEnvironmentMarker(join(envsRoot, item.name)) !== null,
  );
}
