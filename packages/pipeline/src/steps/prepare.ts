import { resolveWorkers } from '@repocod/core';
import type { ExecutorFactory, PreparedRepository } from '@repocod/runner';
import { prepareRepository, runnerPaths } from '@repocod/runner';
import type { FindRepositoryOptions } from './find-repository.js';
import { findRepository } from './find-repository.js';

export interface PrepareStageOptions extends FindRepositoryOptions {
  readonly repository: string;
  readonly workers?: number;
  readonly freshEnvironment?: boolean;
  readonly onLog?: (line: string) => void;
  /** Where clones, environments and worktrees live; default `.repocod/` under the project root. */
  readonly stateRoot?: string;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  /**
   * Repositories the caller has prepared already, by name: a flow prepares each repository once and
   * hands it to every later stage, which would otherwise check the checkout, the environment and the
   * worktrees (and start Python to prove the worktrees import their own code) again.
   */
  readonly prepared?: ReadonlyMap<string, PreparedRepository>;
}

/** `repocod env`: the checkout at its base commit, its environment and its worktrees, made or reused. */
export async function prepareStage(options: PrepareStageOptions): Promise<PreparedRepository> {
  const known = options.prepared?.get(options.repository);
  if (known !== undefined) return known;
  const entry = findRepository(options.repository, options);
  return prepareRepository(entry, runnerPaths(options.projectRoot, options.stateRoot), {
    workers: resolveWorkers(options.workers),
    freshEnvironment: options.freshEnvironment,
    onLog: options.onLog,
  });
}
