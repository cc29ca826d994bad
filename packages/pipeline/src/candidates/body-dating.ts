import type { BodyHistoryDating } from '@repocod/catalog';
import { BODY_BLAME_ARGS } from '@repocod/runner';

/**
 * How a repository's bodies were dated at a base commit, as the catalog's `body_history` key says it (its
 * `blame_args` column): by git blame (a clone with its history), or by release diff (a snapshot without history,
 * against an older release). The key text is the one place the way of dating is stored: publish, record and show
 * read it back from the catalog instead of being told again, and a date made one way is never reused for another.
 */
export type BodyDating = { readonly kind: 'blame' } | ReleaseDiffDating;

/** A release as a dating names it: its version (PKG-INFO's) and date (its newest file's time, UTC). */
export interface ReleaseStamp {
  readonly version: string;
  /** UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly releasedAt: string;
}

/**
 * Bodies dated by release diff: a body that differs from the older release's (or is absent there) changed after it,
 * and is dated at the newer release; one that does not is dated at the older release (release-diff.ts states the
 * rules of the comparison).
 */
export interface ReleaseDiffDating {
  readonly kind: 'release-diff';
  /** The older release the snapshot was compared with, and the sha256 of its sdist (PyPI's digest of the file). */
  readonly against: ReleaseStamp & { readonly sha256: string };
  /** The snapshot's own release: the stand-in. */
  readonly release: ReleaseStamp;
}

/** Bodies dated by git blame with today's options. */
export const BLAME_DATING: BodyDating = { kind: 'blame' };

/** The blame options a stored date was made with, part of its key: another way of dating never reuses a row. */
const BLAME_KEY = BODY_BLAME_ARGS.join(' ');

const RELEASE_DIFF_KEY = /^release-diff against (\S+) \((\S+), sha256 ([0-9a-f]{64})\) to (\S+) \((\S+)\)$/;

/**
 * The key text of a dating: the blame options, or `release-diff against 1.6.1 (2025-01-09T15:15:00Z, archive sha256
 * …) to 1.9.1 (2026-09-10T05:14:00Z)`, which names both releases (a version has no space, PEP 440).
 */
export function datingKeyText(dating: BodyDating): string {
  if (dating.kind === 'blame') return BLAME_KEY;
  const { against, release } = dating;
  return [
    `release-diff against ${against.version} (${against.releasedAt}, sha256 ${against.sha256})`,
    `to ${release.version} (${release.releasedAt})`,
  ].join(' ');
}

/** The dating a key text names, or null for one this tool does not make (older blame options, say). */
export function datingOfKeyText(text: string): BodyDating | null {
  if (text === BLAME_KEY) return BLAME_DATING;
  const match = RELEASE_DIFF_KEY.exec(text);
  if (match === null) return null;
  const [, againstVersion, againstAt, sha256, version, releasedAt] = match;
  return {
    kind: 'release-diff',
    against: { version: againstVersion as string, releasedAt: againstAt as string, sha256: sha256 as string },
    release: { version: version as string, releasedAt: releasedAt as string },
  };
}

/**
 * The dating a repository's stored dates are read under, of those stored at a base commit (the catalog's
 * bodyHistoryDatings, the most recent first): the most recent this tool knows. A repository is dated one way at a
 * commit (blame needs history, release diff its absence), so there is one unless it was dated again against
 * another release, and then the latest dating is the one the tasks were made with.
 */
export function chooseDating(stored: readonly BodyHistoryDating[]): BodyDating | null {
  for (const dating of stored) {
    const known = datingOfKeyText(dating.blameArgs);
    if (known !== null) return known;
  }
  return null;
}

/** The prefix of a release-diff body "commit": what tells it from a git commit in a record or `repocod show`. */
export const RELEASE_DIFF_PREFIX = 'release-diff:';

/**
 * What a release-diff row keeps where blame keeps the commit (`body_commit`): `release-diff:1.6.1..1.9.1` for a
 * body that changed between the two releases (it is dated at the newer), `release-diff:..1.6.1` for one that is as
 * it was in the older release (dated at the older: it was written then or before).
 */
export function releaseDiffCommit(dating: ReleaseDiffDating, changed: boolean): string {
  return changed
    ? `${RELEASE_DIFF_PREFIX}${dating.against.version}..${dating.release.version}`
    : `${RELEASE_DIFF_PREFIX}..${dating.against.version}`;
}

/** Whether a body's "commit" is a release diff's text rather than a git commit. */
export function isReleaseDiffCommit(bodyCommit: string): boolean {
  return bodyCommit.startsWith(RELEASE_DIFF_PREFIX);
}

/** A body's commit as `repocod show` prints it: a git commit's first 12 characters, a release diff's whole text. */
export function shortBodyCommit(bodyCommit: string): string {
  return isReleaseDiffCommit(bodyCommit) ? bodyCommit : bodyCommit.slice(0, 12);
}

/**
 * A release diff as a release's `freshness.json` and a record's meta write it: the newer release (the snapshot's
 * source, the stand-in) and the older one it was compared with, each with its version and date (runner's
 * sdist-release.ts: the sdist's newest file), and the older's sha256 (PyPI's digest of its sdist).
 */
export interface ReleaseDiffRecord {
  readonly version: string;
  readonly released_at: string;
  readonly against_version: string;
  readonly against_released_at: string;
  readonly against_sha256: string;
}

export function releaseDiffRecord(dating: ReleaseDiffDating): ReleaseDiffRecord {
  const { against, release } = dating;
  return {
    version: release.version,
    released_at: release.releasedAt,
    against_version: against.version,
    against_released_at: against.releasedAt,
    against_sha256: against.sha256,
  };
}
