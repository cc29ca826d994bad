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
 * A wrong sha256 is a StandInDigestError naming both digests, and the download is kept aside to look at.
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
      throw new StandInDigestError(name, standIn, digest, `${archive}.mismatch`);
    }
    writeFileSync(archive, bytes);
  }
  return unpackSdist(archive, target);
}

/**
 * A stand-in whose archive is not the one the manifest pins (`stand_in.sha256`): the file on the index was replaced,
 * or the manifest names another release. A usage error, since the curator decides which (fix the manifest's digest
 * after checking the release, or give the source with --source); nothing is unpacked and nothing stored is touched.
 */
export class StandInDigestError extends RepocodError {
  readonly repository: string;
  readonly url: string;
  readonly expected: string;
  readonly actual: string;
  /** Where the download was kept to look at. */
  readonly kept: string;

  constructor(repository: string, standIn: StandIn, actual: string, kept: string) {
    super(
      'usage',
      [
        `${repository}: the stand-in ${standIn.sdist} has sha256 ${actual}, the manifest's stand_in.sha256 is`,
        `${standIn.sha256}; kept as ${kept}. Nothing was unpacked. Check the release and correct stand_in.sha256 in`,
        `the manifest, or give the source with --source ${repository}=FOLDER`,
      ].join(' '),
    );
    this.name = 'StandInDigestError';
    this.repository = repository;
    this.url = standIn.sdist;
    this.expected = standIn.sha256;
    this.actual = actual;
    this.kept = kept;
  }
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
