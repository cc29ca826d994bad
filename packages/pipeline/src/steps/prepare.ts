import { RepocodError, resolveWorkers } from '@repocod/core';
import type { ManifestEntry, PreparedRepository } from '@repocod/runner';
import { catalogName, parseAtOverride, prepareRepository, projectName, runnerPaths } from '@repocod/runner';
import type { FindRepositoryOptions } from './find-repository.js';
import { findRepository, listRepositories } from './find-repository.js';
import { repositoryAt } from './repository-at.js';

/** Where a repository is found and made ready: its manifest entry, the state folder, the worktrees to make. */
export interface PrepareOptions extends FindRepositoryOptions {
  readonly workers?: number;
  readonly freshEnvironment?: boolean;
  readonly onLog?: (line: string) => void;
  /** Where clones, environments and worktrees live; default `.repocod/` under the project root. */
  readonly stateRoot?: string;
}

/**
 * `repocod env`: the checkout at its base commit (the one its `--at` names, if any), its environment and its
 * worktrees, made or reused.
 */
export async function prepareStep(repository: string, options: PrepareOptions): Promise<PreparedRepository> {
  const paths = runnerPaths(options.projectRoot, options.stateRoot);
  const entry = await repositoryAt(findRepository(repository, options), options.ats ?? [], paths, options.onLog);
  return prepareRepository(entry, paths, {
    workers: resolveWorkers(options.workers),
    freshEnvironment: options.freshEnvironment,
    onLog: options.onLog,
  });
}

/**
 * The repositories a step works on, each prepared once: the steps that span repositories (validate,
 * evaluate) ask for each by name. A flow hands over the ones its prepare stage made; a command prepares
 * each on demand. Preparing again would check the checkout, the environment and the worktrees (and start
 * Python to prove the worktrees import their own code) for nothing.
 */
export class PreparedRepositories {
  private readonly made = new Map<string, Promise<PreparedRepository>>();
  /** The catalog name of each repository prepared (catalog-name.ts), by the name it was asked by. */
  private readonly catalogNames = new Map<string, string>();

  constructor(
    private readonly options: PrepareOptions,
    /** Repositories prepared already, by name (a test's renamed copy of one). */
    kept: ReadonlyMap<string, PreparedRepository> = new Map(),
  ) {
    for (const [name, prepared] of kept) {
      this.made.set(name, Promise.resolve(prepared));
      this.catalogNames.set(name, catalogName(prepared.entry));
    }
  }

  /** The repository ready to run: the one kept or made before, else made now (telling `onLog` how it goes). */
  get(repository: string, onLog?: (line: string) => void): Promise<PreparedRepository> {
    let prepared = this.made.get(repository);
    if (prepared === undefined) {
      prepared = prepareStep(repository, onLog === undefined ? this.options : { ...this.options, onLog });
      this.keep(repository, prepared);
    }
    return prepared;
  }

  /**
   * The repository that tasks stored under `name` (a catalog name, catalog-name.ts) were built in. An era's
   * `NAME@COMMIT12` is NAME at that commit: the one this run's --at built, else NAME prepared --at that commit. A
   * manifest name is the manifest's commit: an --at that moves it is refused, or the tasks would run on another tree.
   */
  async ofCatalogName(name: string, onLog?: (line: string) => void): Promise<PreparedRepository> {
    const project = projectName(name);
    const era = name === project ? null : name.slice(project.length + 1);
    const ats = this.options.ats ?? [];
    const named = ats.some((at) => parseAtOverride(at).name === project);
    let prepared = this.made.get(project);
    if (prepared === undefined || (era !== null && !named)) {
      prepared = this.made.get(name);
      if (prepared === undefined) {
        const options = onLog === undefined ? this.options : { ...this.options, onLog };
        prepared = prepareStep(project, {
          ...options,
          ats: era === null || named ? ats : [...ats, `${project}=${era}`],
        });
        this.keep(name, prepared);
      }
    }
    const ready = await prepared;
    const built = catalogName(ready.entry);
    if (built === name) return ready;
    const fix = era === null ? `drop --at ${project}=… to work on them` : `give --at ${project}=${era}`;
    throw new RepocodError(
      'usage',
      `${name}: these tasks are ${project} at ${era ?? "its manifest's commit"}, but ${ats.join(' ')} builds ` +
        `${built}; ` +
        `${fix}`,
    );
  }

  private keep(name: string, prepared: Promise<PreparedRepository>): void {
    this.made.set(name, prepared);
    // A failed preparation is not kept: the next ask tries again (and reports its own error).
    prepared.then(
      (ready) => this.catalogNames.set(name, catalogName(ready.entry)),
      () => this.made.delete(name),
    );
  }

  /**
   * The name the catalog keeps `repository`'s rows under: its era's when --at moved it (catalog-name.ts), known once
   * it is prepared; the name itself before.
   */
  catalogNameOf(repository: string): string {
    return this.catalogNames.get(repository) ?? repository;
  }

  /** Every repository the manifest knows, in its order (--source applied), prepared or not. */
  manifestEntries(): ManifestEntry[] {
    return listRepositories(this.options);
  }
}
