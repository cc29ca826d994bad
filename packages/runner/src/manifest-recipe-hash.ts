import { contentHash } from '@repocod/core';
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

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
