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
  const counts = new Map((await catalog.repositoryCounts()).map((row) => [row.repository, row]));
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

function hasEnvironment(envsRoot: string, entry: ManifestEntry): boolean {
  if (!existsSync(envsRoot)) return false;
  return readdirSync(envsRoot, { withFileTypes: true }).some(
    (item) =>
      item.isDirectory() &&
      item.name.startsWith(`${entry.name}-`) &&
      readEnvironmentMarker(join(envsRoot, item.name)) !== null,
  );
}
