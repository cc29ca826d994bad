import { contentHash } from '@repocod/core';
import { stableJson } from './manifest-recipe-hash.js';

/**
 * The runner's own packages, installed into every environment after the recipe: pytest-reportlog
 * for structured per-test results, coverage for the coverage map, pytest-timeout for per-test
 * limits. pytest itself is not here: each recipe pins the pytest its repository's tests expect.
 */
export const HARNESS_PACKAGES: readonly string[] = [
  'pytest-reportlog==1.0.0',
  'coverage==7.6.1',
  'pytest-timeout==2.4.0',
];

/**
 * Installed into every venv right after it is made, before the recipe. uv makes venvs without pip,
 * and the recipes say `python -m pip ...`, so uv venvs need pip; pinning it (and the setuptools a
 * 3.11 venv otherwise brings from ensurepip, in whatever version the interpreter bundled) in both
 * the uv and the venv+pip paths makes the recipe run under the same pip and setuptools whichever
 * installer made the venv and whichever 3.11.x made it. Versions of September 2024, like the recipes.
 * They are installed without a date limit: they are pinned, and older than any base commit here.
 */
export const SEED_PACKAGES: readonly string[] = ['pip==24.2', 'setuptools==75.1.0'];

/** Bumped when what an environment is made of changes in a way the inputs below do not show. */
const ENVIRONMENT_FORMAT = 'repocod-env/2';

/** How many hex digits of the key name an environment's folder. */
export const ENVIRONMENT_KEY_PREFIX = 16;

/**
 * The cache key of an environment: sha256 over the recipe hash, the base commit (install commands
 * read the checkout's files, `pip install -e .` above all, so the same recipe at another commit is
 * another environment), the date its versions were resolved as of, and the runner's own pins.
 * `resolvedAsOf` is the date the installer actually applied: null for an undated build (no date, or
 * pip, which cannot limit by date against every index). The installer itself is left out: an undated
 * build is the same whichever made it, so an environment made by one is reused by the other.
 */
export function environmentKey(
  recipeHash: string,
  baseCommit: string | null,
  resolvedAsOf: string | null = null,
): string {
  return contentHash(
    stableJson({
      format: ENVIRONMENT_FORMAT,
      recipeHash,
      baseCommit,
      resolvedAsOf,
      seed: SEED_PACKAGES,
      harness: HARNESS_PACKAGES,
    }),
  );
}

/** `<name>-<first 16 hex digits of the key>`: readable in a listing, unique enough per repository. */
export function environmentDirectoryName(name: string, key: string): string {
  return `${name}-${key.slice(0, ENVIRONMENT_KEY_PREFIX)}`;
}
