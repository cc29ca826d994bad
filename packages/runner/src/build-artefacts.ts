import { execFile } from 'node:child_process';
import {
  appendFileSync,
  type Dirent,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { RepocodError, contentHash } from '@repocod/core';
import { git } from './git.js';
import { stderrTail } from './stderr-tail.js';
import type { Worktree } from './worktrees.js';

const execFileAsync = promisify(execFile);

/**
 * The build products a compiled project's worktrees need and git does not carry: its extension
 * modules and the files its build generates (astropy's `_version.py` and `cython_version.py`). The
 * environment is built once; each worktree gets a copy of what that build made, and a worktree builds
 * on its own only when a job's patch changes a compiled source (see compiledSourcesOf).
 *
 * The rules, stated once:
 * - The artefacts are found where the environment imports each top-level package from, asked of its
 *   interpreter outside any worktree: the main checkout after an editable or in-place build
 *   (setuptools), site-packages after a regular install (how a meson-python project such as
 *   scikit-learn is installed here, since its editable loader always serves the folder it was built
 *   from).
 * - An artefact is a file under that folder whose path in the project (`<package>/<rest>`) git does
 *   not track at the base commit, except `__pycache__` folders, bytecode, object files and C/C++
 *   sources and headers: only a compiler reads those (Cython writes its `.c` beside each `.pyx`).
 *   A pure-Python project has none, and nothing here touches its worktrees.
 * - Artefacts are copied, not linked, so that a worktree that rebuilds writes its own files and never
 *   the shared ones. A worktree keeps its copies across jobs: `git clean` spares ignored files, and an
 *   artefact the project's .gitignore does not cover is added to the repository's info/exclude.
 * - Each worktree remembers the key of the set it holds (`<worktree>.build-artefacts`, beside it); a
 *   rebuilt environment changes the key and the worktrees are copied again.
 */

export interface BuildArtefact {
  /** Path relative to the package root: the same in the checkout, the environment and every worktree. */
  readonly path: string;
  /** The file the environment's build made. */
  readonly source: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

export interface BuildArtefacts {
  readonly files: readonly BuildArtefact[];
  /** Changes when any artefact does (path, size, modification time). */
  readonly key: string;
}

export const NO_BUILD_ARTEFACTS: BuildArtefacts = { files: [], key: contentHash('[]') };

/** A top-level package of the project: its import name and its folder relative to the package root. */
export interface ProjectPackage {
  readonly name: string;
  readonly folder: string;
}

const SKIPPED_FILE = /\.(pyc|pyo|o|obj|c|cc|cpp|cxx|h|hh|hpp)$/;
/** Sources whose change makes the built extensions stale. */
const COMPILED_SOURCE = /(^|\/)(meson\.build|[^/]+\.(pyx|pxd|pxi|c|cc|cpp|cxx|h|hh|hpp|f|f90|tp))$/;
/** An extension module's file name: `_speedups.cpython-311-x86_64-linux-gnu.so`, `_lib.abi3.so`, `_x.so`. */
const EXTENSION_MODULE = /^([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z0-9_-]+)*\.(so|pyd)$/;

/** Where the environment imports each package from (its folders), asked outside any worktree. */
export async function packageImportFolders(
  python: string,
  names: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<Map<string, string[]>> {
  if (names.length === 0) return new Map();
  const script = [
    'import importlib.util, json, sys',
    'found = {}',
    'for name in sys.argv[1:]:',
    '    try:',
    '        spec = importlib.util.find_spec(name)',
    '    except Exception:',
    '        spec = None',
    '    found[name] = list(spec.submodule_search_locations or []) if spec is not None else []',
    'print(json.dumps(found))',
  ].join('\n');
  const { PYTHONPATH: _ignored, ...inherited } = process.env;
  let stdout: string;
  try {
    const options = { cwd: tmpdir(), env: { ...inherited, ...env } };
    ({ stdout } = await execFileAsync(python, ['-c', script, ...names], options));
  } catch (error) {
    const stderr = stderrTail(error);
    const what = `${python} could not tell where it imports ${names.join(', ')} from`;
    throw new RepocodError('environment-failed', `${what}:\n${stderr}`);
  }
  const parsed = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, string[]>;
  return new Map(Object.entries(parsed));
}

/**
 * The artefacts of a project (see the rules above). `projectDir` is the main checkout's package root,
 * whose git index says what is tracked; `folders` where the environment imports each package from.
 */
export async function findBuildArtefacts(
  projectDir: string,
  packages: readonly ProjectPackage[],
  folders: ReadonlyMap<string, readonly string[]>,
): Promise<BuildArtefacts> {
  const tracked = new Set((await git(projectDir, ['ls-files', '-z'])).split('\0').filter((path) => path !== ''));
  const files: BuildArtefact[] = [];
  const seen = new Set<string>();
  for (const pkg of packages) {
    for (const folder of folders.get(pkg.name) ?? []) {
      for (const inside of walkFiles(folder)) {
        const path = `${pkg.folder}/${inside}`;
        if (tracked.has(path) || seen.has(path) || SKIPPED_FILE.test(path)) continue;
        const source = join(folder, inside);
        const stats = statSync(source);
        seen.add(path);
        files.push({ path, source, bytes: stats.size, mtimeMs: Math.trunc(stats.mtimeMs) });
      }
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, key: contentHash(JSON.stringify(files.map((file) => [file.path, file.bytes, file.mtimeMs]))) };
}

/** Files under `folder`, relative to it, `__pycache__` and hidden folders skipped, symlinked folders not followed. */
function walkFiles(folder: string): string[] {
  const found: string[] = [];
  const visit = (relativeDir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(folder, relativeDir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '__pycache__' && !entry.name.startsWith('.')) visit(path);
      } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(join(folder, path)))) {
        found.push(path);
      }
    }
  };
  visit('');
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where a worktree records the key of the artefacts it holds: beside it, outside git's reach. */
export function artefactStampPath(worktree: Pick<Worktree, 'path'>): string {
  return `${worktree.path}.build-artefacts`;
}

/**
 * Gives the worktree its copy of the artefacts, unless it holds this set already (same key, every
 * file there); `force` copies anyway (after a job rebuilt the worktree). Returns whether it copied.
 */
export async function shareBuildArtefacts(
  worktree: Worktree,
  packageRoot: string,
  artefacts: BuildArtefacts,
  force = false,
): Promise<boolean> {
  if (artefacts.files.length === 0) return false;
  const projectDir = join(worktree.path, packageRoot);
  const stamp = artefactStampPath(worktree);
  const current = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  const present = artefacts.files.every((file) => existsSync(join(projectDir, file.path)));
  const holdsThem = current === artefacts.key && present;
  if (holdsThem && !force) return false;
  for (const file of artefacts.files) {
    const target = join(projectDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file.source, target);
  }
  await excludeFromClean(
    worktree,
    packageRoot,
    artefacts.files.map((file) => file.path),
  );
  writeFileSync(stamp, `${artefacts.key}\n`);
  return true;
}

const EXCLUDE_HEADER = '# repocod-kit: build artefacts copied into the worktrees (kept by git clean)';

/** Adds the artefacts git would clean away (not covered by the project's .gitignore) to info/exclude. */
async function excludeFromClean(worktree: Worktree, packageRoot: string, paths: readonly string[]): Promise<void> {
  const projectDir = join(worktree.path, packageRoot);
  const listed = await git(projectDir, ['ls-files', '--others', '--exclude-standard', '-z', '--', ...paths]);
  const untracked = listed.split('\0').filter((path) => path !== '');
  if (untracked.length === 0) return;
  const commonDir = (await git(worktree.path, ['rev-parse', '--git-common-dir'])).trim();
  const excludeFile = join(isAbsolute(commonDir) ? commonDir : join(worktree.path, commonDir), 'info', 'exclude');
  const prefix = relative(worktree.path, projectDir).split('\\').join('/');
  const existing = existsSync(excludeFile) ? new Set(readFileSync(excludeFile, 'utf8').split('\n')) : new Set<string>();
  const anchored = untracked.map((path) => `/${prefix === '' ? '' : `${prefix}/`}${path}`);
  const lines = anchored.filter((line) => !existing.has(line));
  if (lines.length === 0) return;
  mkdirSync(dirname(excludeFile), { recursive: true });
  appendFileSync(excludeFile, `${existing.has(EXCLUDE_HEADER) ? '' : `${EXCLUDE_HEADER}\n`}${lines.join('\n')}\n`);
}

/** The compiled sources (relative to the repository root) that a job's patches change. */
export function compiledSourcesOf(patches: readonly string[]): string[] {
  const touched = new Set<string>();
  for (const patch of patches) {
    for (const match of patch.matchAll(/^(?:\+\+\+ b\/|--- a\/)(.+?)\t?$/gm)) {
      const path = match[1] ?? '';
      if (COMPILED_SOURCE.test(path)) touched.add(path);
    }
  }
  return [...touched].sort();
}

/**
 * The import name of an extension module among the artefacts (`pkg/sub/_x.cpython-311-….so` →
 * `pkg.sub._x`), for the check that a worktree imports its own copy; null when the file is not one.
 */
export function extensionModuleName(pkg: ProjectPackage, path: string): string | null {
  if (!path.startsWith(`${pkg.folder}/`)) return null;
  const parts = path.slice(pkg.folder.length + 1).split('/');
  const match = EXTENSION_MODULE.exec(parts.at(-1) ?? '');
  if (match === null) return null;
  return [pkg.name, ...parts.slice(0, -1), match[1]].join('.');
}
