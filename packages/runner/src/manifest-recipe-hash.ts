import { contentHash, stableJson } from '@repocod/core';
import type { ManifestEntry } from './manifest.js';

/**
 * Bumped when the meaning of a recipe changes (not its content), so that environments built under the
 * old meaning are not reused.
 */
const RECIPE_FORMAT = 'repocod-recipe/2';

/**
 * The cache key of a repository's environment: sha256 over exactly the fields that decide what gets
 * installed (python, install steps, resolution date setting, package root, env). Test roots, pytest arguments,
 * deselected
 * tests and the timeout change how tests run, not the environment, so they leave the hash alone.
 */
export function recipeHash(entry: ManifestEntry): string {
  return contentHash(
    stableJson({
      format: RECIPE_FORMAT,
      python: entry.python,
      packageRoot: entry.packageRoot,
      install: entry.install,
      excludeNewer: entry.excludeNewer,
      env: entry.env,
    }),
  );
}

/** Kept here for the runner's importers; the function lives in core. */
export { stableJson } from '@repocod/core';
