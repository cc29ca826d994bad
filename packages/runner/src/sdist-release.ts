import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contentHash, RepocodError } from '@repocod/core';
import { newestFileTime } from './stand-in-source.js';
import { unpackSdist } from './unpack-sdist.js';

/**
 * A release of a Python project as its source distribution has it: what dating a snapshot's bodies by release diff
 * (`--dated-against`) needs of the older release, and of the snapshot itself.
 *
 * - The version is PKG-INFO's `Version:` (every sdist has the file; a git checkout does not, which is how a folder
 *   that is not a release is told apart).
 * - The release date is the newest file's modification time: PKG-INFO has no date, and an sdist keeps its build's
 *   times, the day of the release (the rule stand-in-source.ts resolves a stand-in's packages by).
 * - Its identity is the sha256 of the archive when one was given, else of the tree (see treeDigest), so that a
 *   dating made against one release is never reused for another.
 */
export interface SdistRelease {
  /** What was given, resolved: the archive or the folder. */
  readonly given: string;
  /** The source folder: the folder given, or the archive's one folder once unpacked. */
  readonly folder: string;
  /** PKG-INFO's `Name:`. */
  readonly project: string;
  /** PKG-INFO's `Version:`. */
  readonly version: string;
  /** The newest file's modification time, UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly releasedAt: string;
  readonly sha256: string;
  /** What sha256 is of: the archive given, or the tree of a folder given. */
  readonly digestOf: 'archive' | 'tree';
}

/** Why a path is not a release's source: it is missing, not a folder or `.tar.gz`, or lacks PKG-INFO or Python. */
export type NotAPythonSourceProblem = 'missing' | 'not-an-sdist' | 'no-pkg-info' | 'no-version' | 'no-python-files';

/** A path given as a release of a repository that is not one: a usage error naming it and what to give instead. */
export class NotAPythonSourceError extends RepocodError {
  readonly repository: string;
  readonly path: string;
  readonly problem: NotAPythonSourceProblem;

  constructor(repository: string, path: string, problem: NotAPythonSourceProblem) {
    const what: Record<NotAPythonSourceProblem, string> = {
      missing: 'does not exist',
      'not-an-sdist': 'is a file but not a source distribution (.tar.gz)',
      'no-pkg-info': 'has no PKG-INFO, so it is not an unpacked source distribution (a git checkout has none)',
      'no-version': "has a PKG-INFO without a 'Version:' line",
      'no-python-files': 'holds no .py file',
    };
    super(
      'usage',
      [
        `${repository}: ${path} ${what[problem]}; give a release of ${repository} as PyPI has it: its sdist`,
        `(NAME-VERSION.tar.gz) or the folder it unpacks into`,
      ].join(' '),
    );
    this.name = 'NotAPythonSourceError';
    this.repository = repository;
    this.path = path;
    this.problem = problem;
  }
}

/**
 * The release at `given` (a `.tar.gz` sdist, unpacked once into `<stateRoot>/src/<repository>-release-<sha256
 * prefix>`, or a folder), read as SdistRelease says; a NotAPythonSourceError when it is not a Python project's
 * source.
 */
export function openSdistRelease(repository: string, given: string, stateRoot: string): SdistRelease {
  const path = resolve(given);
  if (!existsSync(path)) throw new NotAPythonSourceError(repository, path, 'missing');
  if (statSync(path).isDirectory())
    return readRelease(repository, path, path, contentHash(treeDigestText(path)), 'tree');
  if (!/\.(tar\.gz|tgz)$/.test(path)) throw new NotAPythonSourceError(repository, path, 'not-an-sdist');
  const sha256 = contentHash(readFileSync(path));
  const folder = unpackSdist(path, join(stateRoot, 'src', `${repository}-release-${sha256.slice(0, 12)}`));
  return readRelease(repository, path, folder, sha256, 'archive');
}

function readRelease(
  repository: string,
  given: string,
  folder: string,
  sha256: string,
  digestOf: SdistRelease['digestOf'],
): SdistRelease {
  const pkgInfo = join(folder, 'PKG-INFO');
  if (!existsSync(pkgInfo)) throw new NotAPythonSourceError(repository, given, 'no-pkg-info');
  const fields = pkgInfoFields(readFileSync(pkgInfo, 'utf8'));
  const version = fields.get('version');
  if (version === undefined || version === '') throw new NotAPythonSourceError(repository, given, 'no-version');
  if (!holdsPythonFile(folder)) throw new NotAPythonSourceError(repository, given, 'no-python-files');
  return {
    given,
    folder,
    project: fields.get('name') ?? '',
    version,
    releasedAt: newestFileTime(folder),
    sha256,
    digestOf,
  };
}

/**
 * The header fields of a PKG-INFO (core metadata: `Key: value` lines up to the first blank line, which starts the
 * description), by lower-case key; the first of a repeated key.
 */
export function pkgInfoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') break;
    const match = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (match === null) continue;
    const key = (match[1] as string).toLowerCase();
    if (!fields.has(key)) fields.set(key, (match[2] as string).trim());
  }
  return fields;
}

/** Whether a project name is the same as another one by PyPI's rule (PEP 503: case, and runs of `-_.` alike). */
export function sameProjectName(a: string, b: string): boolean {
  const normal = (name: string) => name.replace(/[-_.]+/g, '-').toLowerCase();
  return normal(a) === normal(b);
}

/**
 * What a folder's digest is the sha256 of: one line per file (`<sha256>  <path>`, as sha256sum prints it), sorted by
 * path, `.git` left out. Names and contents alone: copying a folder, which changes its times, keeps its digest.
 */
function treeDigestText(folder: string): string {
  const files: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.push(relative(folder, path).split('\\').join('/'));
    }
  };
  visit(folder);
  files.sort();
  return files.map((file) => `${contentHash(readFileSync(join(folder, file)))}  ${file}\n`).join('');
}

function holdsPythonFile(folder: string): boolean {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isFile() && entry.name.endsWith('.py')) return true;
    if (entry.isDirectory() && holdsPythonFile(join(folder, entry.name))) return true;
  }
  return false;
}
