import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest, ManifestEntry } from '@repocod/runner';
import { applySourceOverrides, loadManifest, manifestEntry, parseAtOverrides } from '@repocod/runner';

/** The manifests the CLI knows without being told: the 11 REPOCOD repositories and the bundled demo. */
export const BUILT_IN_MANIFESTS = ['datasets/repocod/manifest.yaml', 'datasets/demo/manifest.yaml'];

export interface FindRepositoryOptions {
  readonly projectRoot: string;
  /** A manifest file of the user's; default: the built-in ones. */
  readonly manifest?: string;
  /** `--source NAME=PATH` options: a local clone instead of the url. */
  readonly sources?: readonly string[];
  /**
   * `--at NAME=REF` options: a repository built at another commit than the manifest's. Checked here against the
   * manifest (names, the spec's form); resolved to a commit when the repository is prepared (repository-at.ts).
   */
  readonly ats?: readonly string[];
}

/** The manifest entry of a repository by name, from the user's manifest or the built-in ones. */
export function findRepository(name: string, options: FindRepositoryOptions): ManifestEntry {
  const files =
    options.manifest !== undefined
      ? [options.manifest]
      : BUILT_IN_MANIFESTS.map((file) => join(options.projectRoot, file));
  const manifests = files.filter((file) => options.manifest !== undefined || existsSync(file)).map(loadManifest);
  const merged: Manifest = {
    file: manifests.map((manifest) => manifest.file).join(' and '),
    repositories: manifests.flatMap((manifest) => manifest.repositories),
  };
  parseAtOverrides(merged, options.ats ?? []);
  return manifestEntry(applySourceOverrides(merged, options.sources ?? []), name);
}

/**
 * Every repository of the user's manifest or of the built-in ones, in manifest order, --source applied; --at is
 * checked but not resolved (that takes git, and a fetch): the entries keep the manifest's base_commit.
 */
export function listRepositories(options: FindRepositoryOptions): ManifestEntry[] {
  const files =
    options.manifest !== undefined
      ? [options.manifest]
      : BUILT_IN_MANIFESTS.map((file) => join(options.projectRoot, file)).filter((file) => existsSync(file));
  const manifests = files.map(loadManifest);
  const merged: Manifest = {
    file: manifests.map((manifest) => manifest.file).join(' and '),
    repositories: manifests.flatMap((manifest) => manifest.repositories),
  };
  parseAtOverrides(merged, options.ats ?? []);
  return [...applySourceOverrides(merged, options.sources ?? []).repositories];
}
