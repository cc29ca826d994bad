import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { LocalManifestEntry, Manifest, ManifestEntry } from './manifest.js';
import { didYouMean } from './manifest-suggest.js';
import { isGitRepository, standInEntry } from './stand-in-source.js';

/**
 * Applies the CLI's `--source NAME=PATH` options: repository NAME is taken from the local clone at
 * PATH (resolved against `cwd`) instead of its url, so a curator without network, or with a clone
 * already on disk, never fetches. The base commit stays: the clone must contain it. A folder that is
 * not a git repository (a release's sdist) stands in for the commit (see stand-in-source.ts).
 */
export function applySourceOverrides(
  manifest: Manifest,
  overrides: readonly string[],
  cwd: string = process.cwd(),
): Manifest {
  const byName = new Map<string, string>();
  for (const override of overrides) {
    const { name, path } = parseOverride(override);
    const folder = resolve(cwd, path);
    if (!manifest.repositories.some((entry) => entry.name === name)) {
      const known = manifest.repositories.map((entry) => entry.name);
      throw new RepocodError(
        'usage',
        `--source ${override}: no repository named "${name}" in ${manifest.file}${didYouMean(name, known)} (known: ` +
          `${known.join(', ')}).\n${ownRepositoryHint(name, folder)}`,
      );
    }
    if (byName.has(name)) {
      throw new RepocodError(
        'usage',
        `--source ${override}: "${name}" is already taken from ${byName.get(name) ?? ''}; give one --source per ` +
          `repository`,
      );
    }
    byName.set(name, checkFolder(override, folder));
  }
  if (byName.size === 0) return manifest;
  return {
    ...manifest,
    repositories: manifest.repositories.map((entry) => {
      const source = byName.get(entry.name);
      return source === undefined ? entry : fromLocalClone(entry, source);
    }),
  };
}

/**
 * What a curator writes to bring a repository of their own: a manifest of a few lines, whose `pip:`
 * step is resolved as of the base commit's day like every REPOCOD repository's.
 */
function ownRepositoryHint(name: string, folder: string): string {
  return [
    'For a repository of your own, let repocod write its entry (owner/name, base commit, python, the recipe read',
    'from its project files, test roots) and check it with one collection of its suite:',
    `  repocod manifest add ${name} --source ${folder} --manifest my-manifest.yaml`,
    'then pass --manifest my-manifest.yaml to every command.',
  ].join('\n');
}

/** `--source NAME=PATH` read: the name and the path as given. */
export function parseSourceOverride(override: string): { name: string; path: string } {
  return parseOverride(override);
}

function parseOverride(override: string): { name: string; path: string } {
  const equals = override.indexOf('=');
  const name = equals < 0 ? '' : override.slice(0, equals).trim();
  const path = equals < 0 ? '' : override.slice(equals + 1).trim();
  if (name === '' || path === '') {
    throw new RepocodError(
      'usage',
      `--source ${JSON.stringify(override)} must look like NAME=PATH, e.g. --source flask=../clones/flask`,
    );
  }
  return { name, path };
}

function checkFolder(override: string, folder: string): string {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(folder).isDirectory();
  } catch (error) {
    throw new RepocodError(
      'path-not-found',
      `--source ${override}: ${folder} does not exist (give the folder of a local clone)`,
      { cause: error },
    );
  }
  if (!isDirectory) {
    throw new RepocodError(
      'not-a-directory',
      `--source ${override}: ${folder} is a file; give the folder of a local clone`,
    );
  }
  return folder;
}

function fromLocalClone(entry: ManifestEntry, source: string): LocalManifestEntry {
  if (entry.baseCommit !== null && !isGitRepository(source)) {
    return standInEntry({ ...entry, baseCommit: entry.baseCommit }, source);
  }
  const upstream = entry.url ?? entry.upstream;
  return { ...entry, url: null, source, baseCommit: entry.baseCommit, ...(upstream === undefined ? {} : { upstream }) };
}
