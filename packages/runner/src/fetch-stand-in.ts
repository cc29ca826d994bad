import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { contentHash, RepocodError } from '@repocod/core';
import type { StandIn } from './manifest.js';
import { unpackedSdist, unpackSdist } from './unpack-sdist.js';

/**
 * The folder of a repository's stand-in (the manifest's `stand_in`: a source distribution that stands in
 * for a commit that cannot be cloned), to pass as its --source. The archive is downloaded once into
 * `<stateRoot>/downloads`, its sha256 checked against the manifest's before anything is unpacked, and
 * unpacked into `<stateRoot>/src/<name>-stand-in-<sha256 prefix>`; a second call finds both there.
 * A wrong sha256 is an error naming both digests, and the download is kept aside to look at.
 */
export async function fetchStandIn(
  name: string,
  standIn: StandIn,
  stateRoot: string,
  fetchArchive: (url: string) => Promise<Uint8Array> = download,
): Promise<string> {
  const target = join(stateRoot, 'src', `${name}-stand-in-${standIn.sha256.slice(0, 12)}`);
  const unpacked = unpackedSdist(target);
  if (unpacked !== null) return unpacked;
  const archive = join(stateRoot, 'downloads', basename(new URL(standIn.sdist).pathname));
  mkdirSync(join(stateRoot, 'downloads'), { recursive: true });
  if (!existsSync(archive) || contentHash(readFileSync(archive)) !== standIn.sha256) {
    const bytes = await fetchArchive(standIn.sdist);
    const digest = contentHash(bytes);
    if (digest !== standIn.sha256) {
      writeFileSync(`${archive}.mismatch`, bytes);
      throw new RepocodError(
        'download-failed',
        `${name}: the stand-in ${standIn.sdist} has sha256 ${digest}, the manifest's stand_in.sha256 is ` +
          `${standIn.sha256}; kept as ${archive}.mismatch. Nothing was unpacked.`,
      );
    }
    writeFileSync(archive, bytes);
  }
  return unpackSdist(archive, target);
}

async function download(url: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new RepocodError('download-failed', `${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new RepocodError('download-failed', `${url}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}
