import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { ManifestEntry, SdistRelease } from '@repocod/runner';
import { isGitRepository, openSdistArchive, readReleaseFolder, sameProjectName } from '@repocod/runner';
import type { ReleaseDiffDating } from './body-dating.js';
import {
  DatedAgainstHistoryError,
  DatedAgainstNotBuiltError,
  OtherProjectReleaseError,
  ReleaseNotBeforeCutoffError,
  SnapshotNotAfterCutoffError,
} from './dated-against-errors.js';

/**
 * A repository whose source has no history (a release's sdist, snapshotted as one commit), dated by release diff
 * (`--dated-against NAME=OLDER_SDIST`): its own release, and the older one its bodies are compared with.
 */
export interface DatedAgainst {
  /** The manifest's name. */
  readonly repository: string;
  /** The older release: the last before the cutoff, an sdist archive (so with its sha256). */
  readonly against: SdistRelease & { readonly sha256: string };
  /** The repository's source, read as a release: the folder its snapshot is made of. */
  readonly release: SdistRelease;
}

/** The repositories dated by release diff, by manifest name. */
export type ReleaseDatings = ReadonlyMap<string, DatedAgainst>;

/** What reading `--dated-against` needs. */
export interface DatedAgainstOptions {
  /** The `--dated-against NAME=PATH` values, as given. */
  readonly specs: readonly string[];
  /** The `--changed-since` cutoff (UTC); --dated-against without one is a usage error. */
  readonly cutoff: string | undefined;
  /** The manifest's entries, --source applied (pipeline's listRepositories). */
  readonly entries: readonly ManifestEntry[];
  /** The repositories the command builds; undefined when they are chosen later (curate: runFlow checks them). */
  readonly building?: readonly string[];
  /** What a manifest's relative `source` is relative to. */
  readonly projectRoot: string;
  /** Where an sdist given as an archive is unpacked (`<stateRoot>/src/`). */
  readonly stateRoot: string;
}

/**
 * The releases `--dated-against` names, each checked before anything is prepared, dated or stored: the option's
 * form and one per repository, a repository the command builds (DatedAgainstNotBuiltError), a source without history
 * (DatedAgainstHistoryError), both paths Python projects' releases (runner's NotAPythonSourceError) of the same
 * project (OtherProjectReleaseError), the older release before the cutoff and the source's after it
 * (checkAroundCutoff). Undefined when none is given.
 */
export function releaseDatings(options: DatedAgainstOptions): ReleaseDatings | undefined {
  if (options.specs.length === 0) return undefined;
  const { cutoff } = options;
  if (cutoff === undefined)
    throw new RepocodError(
      'usage',
      `--dated-against ${options.specs[0]} dates bodies for --changed-since DATE; give the cutoff, or drop it`,
    );
  const parsed = new Map<string, string>();
  for (const spec of options.specs) {
    const { name, path } = parseSpec(spec);
    if (parsed.has(name))
      throw new RepocodError(
        'usage',
        `--dated-against ${spec}: ${name} is already dated against ${parsed.get(name)}; give one per repository`,
      );
    parsed.set(name, path);
  }
  const datings = new Map<string, DatedAgainst>();
  for (const [name, path] of parsed) {
    const entry = options.entries.find((candidate) => candidate.name === name);
    if (entry === undefined)
      throw new DatedAgainstNotBuiltError(
        name,
        options.building ?? options.entries.map((known) => known.name),
        options.building === undefined ? 'knows' : 'builds',
      );
    if (options.building !== undefined && !options.building.includes(name))
      throw new DatedAgainstNotBuiltError(name, options.building, 'builds');
    if (entry.url !== null) throw new DatedAgainstHistoryError(name, entry.url);
    const source = resolve(options.projectRoot, entry.source);
    if (isGitRepository(source)) throw new DatedAgainstHistoryError(name, source);
    const release = readReleaseFolder(name, source);
    const opened = openSdistArchive(name, path, options.stateRoot);
    const against = { ...opened, sha256: opened.sha256 as string };
    if (!sameProjectName(release.project, against.project))
      throw new OtherProjectReleaseError(name, release.project, against.project, against.given);
    const dated = { repository: name, against, release };
    checkAroundCutoff(dated, cutoff);
    datings.set(name, dated);
  }
  return datings;
}

/**
 * The older release must be before the cutoff (ReleaseNotBeforeCutoffError) and the source's release after it
 * (SnapshotNotAfterCutoffError): a body is then new when it changed after the last release before the cutoff.
 */
export function checkAroundCutoff(dated: DatedAgainst, cutoff: string): void {
  const { against, release } = dated;
  if (Date.parse(against.releasedAt) >= Date.parse(cutoff))
    throw new ReleaseNotBeforeCutoffError(dated.repository, against, cutoff);
  if (Date.parse(release.releasedAt) <= Date.parse(cutoff))
    throw new SnapshotNotAfterCutoffError(dated.repository, release, cutoff);
}

/** The datings, once every repository they date is one the flow builds (checked before it runs). */
export function checkDatedRepositories(
  datings: ReleaseDatings | undefined,
  building: readonly string[],
): ReleaseDatings | undefined {
  for (const repository of datings?.keys() ?? [])
    if (!building.includes(repository)) throw new DatedAgainstNotBuiltError(repository, building, 'builds');
  return datings;
}

/** The dating a repository's rows are stored under (body-dating.ts): both releases, the older's digest. */
export function releaseDiffDating(dated: DatedAgainst): ReleaseDiffDating {
  const { against, release } = dated;
  return {
    kind: 'release-diff',
    against: { version: against.version, releasedAt: against.releasedAt, sha256: against.sha256 },
    release: { version: release.version, releasedAt: release.releasedAt },
  };
}

function parseSpec(spec: string): { name: string; path: string } {
  const equals = spec.indexOf('=');
  const name = equals < 0 ? '' : spec.slice(0, equals).trim();
  const path = equals < 0 ? '' : spec.slice(equals + 1).trim();
  if (name === '' || path === '')
    throw new RepocodError(
      'usage',
      [
        `--dated-against ${JSON.stringify(spec)} must look like NAME=OLDER_SDIST (the path of a .tar.gz sdist), e.g.`,
        '--dated-against scikit-learn=scikit_learn-1.6.1.tar.gz',
      ].join(' '),
    );
  // A version where a path belongs: the sdist is compared as a file of the curator's, fetched by pip, not by us.
  if (/^v?\d[0-9A-Za-z.!+-]*$/.test(path) && !existsSync(path))
    throw new RepocodError(
      'usage',
      [
        `--dated-against ${spec}: give the path of ${name} ${path}'s sdist, not its version (this tool does not`,
        `fetch releases by version); \`pip download --no-deps --no-binary :all: ${name}==${path}\` brings it`,
      ].join(' '),
    );
  return { name, path };
}
