import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '@repocod/core';

/**
 * A repository's checkpoint folder named by its content: sha256 over each file's name and sha256, in
 * name order. Records and release manifests cite it, so a rebuild can tell that it restores the very
 * checkpoints a release came from (save writes rows in key order: the same rows give the same digest).
 * Null when the folder does not exist.
 */
export function checkpointDigest(folder: string): string | null {
  if (!existsSync(folder)) return null;
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  return contentHash(JSON.stringify(files.map((name) => [name, contentHash(readFileSync(join(folder, name)))])));
}
