import { RepocodError } from '@repocod/core';

/*
 * What `--dated-against NAME=OLDER_SDIST` refuses, before anything is dated or stored: each a usage error naming
 * the repository, the releases and dates concerned, and what to give instead. (A path that is not a Python
 * project's source is runner's NotAPythonSourceError.)
 */

/** A release as an error names it: its version, its date and where it was read. */
export interface NamedRelease {
  readonly version: string;
  readonly releasedAt: string;
  /** The archive or folder given. */
  readonly given: string;
}

/**
 * The older release is not before the cutoff: a body that changed after it may still have changed before the
 * cutoff, so the diff would call too many bodies new. It must be the last release before the cutoff.
 */
export class ReleaseNotBeforeCutoffError extends RepocodError {
  readonly repository: string;
  readonly against: NamedRelease;
  readonly cutoff: string;

  constructor(repository: string, against: NamedRelease, cutoff: string) {
    super(
      'usage',
      [
        `--dated-against ${repository}=${against.given}: ${repository} ${against.version} was released`,
        `${against.releasedAt} (its sdist's newest file), not before --changed-since ${cutoff}; a body that changed`,
        `after it may have changed before the cutoff. Give the last release of ${repository} before ${cutoff}`,
        `(\`pip index versions ${repository}\` lists the versions; \`pip download --no-deps --no-binary :all:`,
        `${repository}==VERSION\` brings one's sdist)`,
      ].join(' '),
    );
    this.name = 'ReleaseNotBeforeCutoffError';
    this.repository = repository;
    this.against = against;
    this.cutoff = cutoff;
  }
}

/**
 * The snapshot (the stand-in) is itself a release of or before the cutoff: nothing in it can have changed after the
 * cutoff, so every task would be refused.
 */
export class SnapshotNotAfterCutoffError extends RepocodError {
  readonly repository: string;
  readonly release: NamedRelease;
  readonly cutoff: string;

  constructor(repository: string, release: NamedRelease, cutoff: string) {
    super(
      'usage',
      [
        `--changed-since ${cutoff}: ${repository}'s source ${release.given} is release ${release.version} of`,
        `${release.releasedAt} (its newest file), not after the cutoff: an sdist older than the cutoff holds nothing`,
        `changed after it. Give a newer release with --source ${repository}=FOLDER (an sdist released after ${cutoff},`,
        `unpacked), or an earlier --changed-since`,
      ].join(' '),
    );
    this.name = 'SnapshotNotAfterCutoffError';
    this.repository = repository;
    this.release = release;
    this.cutoff = cutoff;
  }
}

/**
 * `--dated-against` for a repository taken from git (a clone, or its url): git blame dates its bodies, and a
 * repository is dated one way, so the two are not mixed.
 */
export class DatedAgainstHistoryError extends RepocodError {
  readonly repository: string;
  /** The clone or url the repository is taken from. */
  readonly source: string;

  constructor(repository: string, source: string) {
    super(
      'usage',
      [
        `--dated-against ${repository}=…: ${repository} is taken from git (${source}), whose history dates each body`,
        `by git blame; --dated-against is for a source without history (a release's sdist given with --source`,
        `${repository}=FOLDER). Drop --dated-against ${repository}=…, or give its sdist with --source`,
      ].join(' '),
    );
    this.name = 'DatedAgainstHistoryError';
    this.repository = repository;
    this.source = source;
  }
}

/** `--dated-against` for a repository this command does not build (or that no manifest has). */
export class DatedAgainstNotBuiltError extends RepocodError {
  readonly repository: string;
  /** What the command builds (or, before the repositories are chosen, what the manifest knows). */
  readonly building: readonly string[];

  constructor(repository: string, building: readonly string[], what: 'builds' | 'knows') {
    const verb = what === 'builds' ? 'this command builds' : 'the manifest has';
    super(
      'usage',
      [
        `--dated-against ${repository}=…: ${repository} is not a repository ${verb} (${building.join(', ')});`,
        `give --dated-against for the repositories built, one each`,
      ].join(' '),
    );
    this.name = 'DatedAgainstNotBuiltError';
    this.repository = repository;
    this.building = building;
  }
}

/** The older release is another project's (PKG-INFO's `Name:` differs, by PyPI's rule of names). */
export class OtherProjectReleaseError extends RepocodError {
  readonly repository: string;
  /** The project the snapshot is a release of, and the one the older release is. */
  readonly project: string;
  readonly againstProject: string;
  readonly given: string;

  constructor(repository: string, project: string, againstProject: string, given: string) {
    super(
      'usage',
      [
        `--dated-against ${repository}=${given}: it is a release of ${againstProject} (PKG-INFO's Name), and`,
        `${repository}'s source is ${project}; give an older release of ${project}`,
      ].join(' '),
    );
    this.name = 'OtherProjectReleaseError';
    this.repository = repository;
    this.project = project;
    this.againstProject = againstProject;
    this.given = given;
  }
}
