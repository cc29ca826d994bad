import { resolveWorkers } from '@repocod/core';
import type { ManifestEntry, PreparedRepository } from '@repocod/runner';
import { prepareRepository, runnerPaths } from '@repocod/runner';
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

  constructor(
    private readonly options: PrepareOptions,
    /** Repositories prepared already, by name (a test's renamed copy of one). */
    kept: ReadonlyMap<string, PreparedRepository> = new Map(),
  ) {
    for (const [name, prepared] of kept) this.made.set(name, Promise.resolve(prepared));
  }

  /** The repository ready to run: the one kept or made before, else made now (telling `onLog` how it goes). */
  get(repository: string, onLog?: (line: string) => void): Promise<PreparedRepository> {
    let prepared = this.made.get(repository);
    if (prepared === undefined) {
      prepared = prepareStep(repository, onLog === undefined ? this.options : { ...this.options, onLog });
      this.made.set(repository, prepared);
      // A failed preparation is not kept: the next ask tries again (and reports its own error).
      prepared.catch(() => this.made.delete(repository));
    }
    return prepared;
  }

  /** Every repository the manifest knows, in its order (--source applied), prepared or not. */
  manifestEntries(): ManifestEntry[] {
    return listRepositories(this.options);
  }
}
