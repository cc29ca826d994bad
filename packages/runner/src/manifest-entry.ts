import { RepocodError } from '@repocod/core';
import type { Manifest, ManifestEntry } from './manifest.js';
import { didYouMean } from './manifest-suggest.js';

/** The repository called `name`; an unknown name fails with the names the manifest does have. */
export function manifestEntry(manifest: Manifest, name: string): ManifestEntry {
  const entry = manifest.repositories.find((candidate) => candidate.name === name);
  if (entry !== undefined) return entry;
  const known = manifest.repositories.map((candidate) => candidate.name);
  throw new RepocodError(
    'usage',
    `no repository named "${name}" in ${manifest.file}${didYouMean(name, known)} (known: ${known.join(', ')})`,
  );
}
