import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contentHash, RepocodError } from '@repocod/core';
import { newestFileTime } from './stand-in-source.js';
import { unpackSdist } from './unpack-sdist.js';

/**
 * A release of a Python project as its source distribution has it: what dating a snapshot's bodies by release diff
 * (`--dated-against`) needs of the older release (an sdist archive), and of the snapshot's own source (the folder an
 * sdist unpacked into, given with --source).
 *
 * - The project and version are PKG-INFO's `Name:` and `Version:` (every sdist has the file; a git checkout does
 *   not, which is how a folder that is not a release is told apart).
 * - The release date is the newest file's modification time: PKG-INFO has no date, and an sdist keeps the times of
 *   its build (for an sdist made from a git archive, as meson-python's and setuptools-scm's are, the release
 *   commit's), within hours of its upload to PyPI; the rule stand-in-source.ts resolves a stand-in's packages by.
 *   PyPI's upload time itself is not read: dating runs without the network, and the sdist is what was compared.
 */
export interface SdistRelease {
  /** The archive or folder given, resolved. */
  readonly given: string;
  /** The source folder: the folder given, or the archive's one folder once unpacked. */
  readonly folder: string;
  /** PKG-INFO's `Name:`. */
  readonly project: string;
  /** PKG-INFO's `Version:`. */
  readonly version: string;
  /** The newest file's modification time, UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly releasedAt: string;
  /** The sha256 of the archive (PyPI's digest of the sdist); null for a folder. */
  readonly sha256: string | null;
}

/** Why a path is not a release's source: missing, not a `.tar.gz` (or folder), or without PKG-INFO or Python. */
export type NotAPythonSdistProblem =
  | 'missing'
  | 'not-a-tar-gz'
  | 'not-a-folder'
  | 'no-pkg-info'
  | 'no-name'
  | 'no-version'
  | 'no-python-files';

/**
 * A path given as a release of a repository that is not one (`flag` names the option that gave it:
 * `--dated-against` for the older release, `--source` for the snapshot's own): a usage error naming the option, the
 * path and what to give instead.
 */
export class NotAPythonSdistError extends RepocodError {
  readonly flag: string;
  readonly repository: string;
  readonly path: string;
  readonly problem: NotAPythonSdistProblem;

  constructor(flag: string, repository: string, path: string, problem: NotAPythonSdistProblem) {
    const what: Record<NotAPythonSdistProblem, string> = {
      missing: 'does not exist',
      'not-a-tar-gz': 'is not a source distribution: an sdist is a .tar.gz',
      'not-a-folder': 'is not a folder (the source an sdist unpacked into)',
      'no-pkg-info': 'has no PKG-INFO, so it is not an sdist (a git checkout or a wheel has none)',
      'no-name': "has a PKG-INFO without a 'Name:' line",
      'no-version': "has a PKG-INFO without a 'Version:' line",
      'no-python-files': 'holds no .py file',
    };
    const wanted =
      flag === '--dated-against'
        ? `the sdist of ${repository}'s last release before the cutoff (NAME-VERSION.tar.gz, as PyPI has it)`
        : `the folder ${repository}'s sdist unpacked into (tar -xzf NAME-VERSION.tar.gz)`;
    super('usage', `${flag} ${repository}=${path}: it ${what[problem]}; give ${wanted}`);
    this.name = 'NotAPythonSdistError';
    this.flag = flag;
    this.repository = repository;
    this.path = path;
    this.problem = problem;
  }
}

/**
 * The release an sdist archive (`given`, a `.tar.gz`) is: unpacked once into `<stateRoot>/src/<repository>-release-
 * <sha256 prefix>` and read as SdistRelease says; a NotAPythonSdistError (for `--dated-against`) when it is not one.
 */
export function openSdistArchive(repository: string, given: string, stateRoot: string): SdistRelease {
  const flag = '--dated-against';
  const path = resolve(given);
  if (!existsSync(path)) throw new NotAPythonSdistError(flag, repository, path, 'missing');
  if (statSync(path).isDirectory() || !/\.(tar\.gz|tgz)$/.test(path) || !isGzip(path))
    throw new NotAPythonSdistError(flag, repository, path, 'not-a-tar-gz');
  const sha256 = contentHash(readFileSync(path));
  let folder: string;
  try {
    folder = unpackSdist(path, join(stateRoot, 'src', `${repository}-release-${sha256.slice(0, 12)}`));
  } catch {
    throw new NotAPythonSdistError(flag, repository, path, 'not-a-tar-gz');
  }
  return { ...readRelease(flag, repository, path, folder), sha256 };
}

/** The release a source folder (an unpacked sdist, given with --source) is; a NotAPythonSdistError when not one. */
export function readReleaseFolder(repository: string, given: string): SdistRelease {
  const path = resolve(given);
  if (!existsSync(path)) throw new NotAPythonSdistError('--source', repository, path, 'missing');
  if (!statSync(path).isDirectory()) throw new NotAPythonSdistError('--source', repository, path, 'not-a-folder');
  return { ...readRelease('--source', repository, path, path), sha256: null };
}

function readRelease(flag: string, repository: string, given: string, folder: string): Omit<SdistRelease, 'sha256'> {
  const pkgInfo = join(folder, 'PKG-INFO');
  if (!existsSync(pkgInfo)) throw new NotAPythonSdistError(flag, repository, given, 'no-pkg-info');
  const fields = pkgInfoFields(readFileSync(pkgInfo, 'utf8'));
  const project = fields.get('name');
  if (project === undefined || project === '') throw new NotAPythonSdistError(flag, repository, given, 'no-name');
  const version = fields.get('version');
  if (version === undefined || version === '') throw new NotAPythonSdistError(flag, repository, given, 'no-version');
  if (!holdsPythonFile(folder)) throw new NotAPythonSdistError(flag, repository, given, 'no-python-files');
  return { given, folder, project, version, releasedAt: newestFileTime(folder) };
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

/** A gzip stream starts with the bytes 1f 8b: a file merely named .tar.gz is refused before tar is run on it. */
function isGzip(path: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

function holdsPythonFile(folder: string): boolean {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isFile() && entry.name.endsWith('.py')) return true;
    if (entry.isDirectory() && holdsPythonFile(join(folder, entry.name))) return true;
  }
  return false;
}
