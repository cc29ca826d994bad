import { join } from 'node:path';
import type { BuildArtefacts } from './build-artefacts.js';
import { findBuildArtefacts, packageImportFolders, shareBuildArtefacts } from './build-artefacts.js';
import type { Checkout } from './checkout.js';
import { ensureCheckout } from './checkout.js';
import type { Environment } from './environment.js';
import { ensureEnvironment } from './environment.js';
import type { ManifestEntry } from './manifest.js';
import { recipeAtCheckout } from './recipe-at-checkout.js';
import { describeRecipeChoice, type RecipeChoice } from './recipe-variant.js';
import type { Worktree } from './worktrees.js';
import { ensureWorktrees } from './worktrees.js';
import { checkWorktreeImports, projectPackages } from './worktree-imports.js';

/** Where the runner keeps its state: clones, environments, worktrees (all under `.repocod/`). */
export interface RunnerPaths {
  readonly projectRoot: string;
  readonly stateRoot: string;
}

export function runnerPaths(projectRoot: string, stateRoot = join(projectRoot, '.repocod')): RunnerPaths {
  return { projectRoot, stateRoot };
}

/** Everything a repository's jobs need: its checkout, its environment, and one worktree per worker. */
export interface PreparedRepository {
  /** The manifest's entry at the checkout's commit: its recipe variant chosen (recipe-variant.ts). */
  readonly entry: ManifestEntry;
  /** Which of the entry's recipe variants applies at the commit; absent for an entry without variants. */
  readonly recipe?: RecipeChoice;
  readonly checkout: Checkout;
  readonly environment: Environment;
  readonly worktrees: readonly Worktree[];
  /** A compiled project's build products, copied into every worktree (none for a pure-Python project). */
  readonly artefacts: BuildArtefacts;
}

export interface PrepareOptions {
  readonly workers: number;
  readonly freshEnvironment?: boolean;
  readonly uv?: string | null;
  readonly onLog?: (line: string) => void;
}

/**
 * Checkout at the base commit, then the environment (keyed by that commit), then the worktree pool,
 * each worktree with the environment's build artefacts (a compiled project's extensions).
 */
export async function prepareRepository(
  manifestEntry: ManifestEntry,
  paths: RunnerPaths,
  options: PrepareOptions,
): Promise<PreparedRepository> {
  const checkout = await ensureCheckout(manifestEntry, {
    reposRoot: join(paths.stateRoot, 'repos'),
    projectRoot: paths.projectRoot,
    onLog: options.onLog,
  });
  // The recipe follows the commit: from here on the entry is the one of the checkout's era.
  const recipe = manifestEntry.variants === undefined ? undefined : await recipeAtCheckout(manifestEntry, checkout);
  const entry = recipe?.entry ?? manifestEntry;
  const described = recipe === undefined ? null : describeRecipeChoice(recipe);
  if (described !== null) options.onLog?.(`${entry.name}: recipe ${described}`);
  const environment = await ensureEnvironment(entry, checkout.path, {
    envsRoot: join(paths.stateRoot, 'envs'),
    baseCommit: checkout.baseCommit,
    commitTimestamp: checkout.commitTimestamp,
    fresh: options.freshEnvironment,
    uv: options.uv,
    onLog: options.onLog,
  });
  const worktrees = await ensureWorktrees(checkout, options.workers, join(paths.stateRoot, 'worktrees'));
  const projectDir = join(checkout.path, entry.packageRoot);
  const packages = projectPackages(projectDir);
  const folders = await packageImportFolders(
    environment.python,
    packages.map((pkg) => pkg.name),
    entry.env,
  );
  const artefacts = await findBuildArtefacts(projectDir, packages, folders);
  const shared = [];
  for (const worktree of worktrees) {
    if (await shareBuildArtefacts(worktree, entry.packageRoot, artefacts)) shared.push(`w${worktree.index}`);
  }
  if (shared.length > 0) {
    const count = artefacts.files.length;
    options.onLog?.(`${entry.name}: ${count} build artefact(s) copied into worktree(s) ${shared.join(', ')}`);
  }
  const prepared = { entry, checkout, environment, worktrees, artefacts, ...(recipe === undefined ? {} : { recipe }) };
  await checkWorktreeImports(prepared);
  return prepared;
}
