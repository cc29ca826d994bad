import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { RepocodError } from '@repocod/core';
import type { ProjectPackage } from './build-artefacts.js';
import { extensionModuleName } from './build-artefacts.js';
import type { PreparedRepository } from './prepare-repository.js';
import { testEnvironment } from './pytest-job.js';
import { stderrTail } from './stderr-tail.js';

const execFileAsync = promisify(execFile);

/** Folders at a project's top that are never its importable package. */
const NOT_PACKAGES = new Set([
  'tests',
  'test',
  'testing',
  'docs',
  'doc',
  'examples',
  'benchmarks',
  'build',
  'dist',
  'scripts',
  'tools',
  'ci',
]);

/** The project's top-level packages: folders with an `__init__.py` in the project folder or its src/. */
export function topLevelPackages(projectDir: string): string[] {
  return projectPackages(projectDir).map((pkg) => pkg.name);
}

/** The same packages with their folders relative to the project folder (`astropy`, `src/flask`). */
export function projectPackages(projectDir: string): ProjectPackage[] {
  const found: ProjectPackage[] = [];
  for (const prefix of ['', 'src/']) {
    const root = join(projectDir, prefix);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      const candidate = entry.isDirectory() && !entry.name.startsWith('.') && !NOT_PACKAGES.has(entry.name);
      if (candidate && existsSync(join(root, entry.name, '__init__.py'))) {
        found.push({ name: entry.name, folder: `${prefix}${entry.name}` });
      }
    }
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Checks that tests in a worktree import the worktree's own code. An editable install points at the
 * main checkout, and a compiled project (scikit-learn's meson loader, astropy's extensions) may load
 * only from where it was built: then a patch in the worktree would be silently ignored and every
 * result would be wrong. Better to stop with what to do than to run. For a compiled project, one
 * extension module per package is imported too: it must be the worktree's copy (build-artefacts.ts).
 */
/** The packages the check imports: the manifest's import_check when it names them, else every one found. */
function checkedPackages(prepared: PreparedRepository, found: readonly ProjectPackage[]): ProjectPackage[] {
  const wanted = prepared.entry.importCheck;
  if (wanted === undefined) return [...found];
  const unknown = wanted.filter((name) => !found.some((pkg) => pkg.name === name));
  if (unknown.length > 0) {
    const known = found.map((pkg) => pkg.name).join(', ') || 'none';
    throw new RepocodError(
      'config-invalid',
      `${prepared.entry.name}: import_check names ${unknown.join(', ')}, which the project folder does not have as a ` +
        `package ` +
        `(its packages: ${known}); name packages of ${prepared.entry.packageRoot}`,
    );
  }
  return found.filter((pkg) => wanted.includes(pkg.name));
}

export async function checkWorktreeImports(prepared: PreparedRepository): Promise<void> {
  const worktree = prepared.worktrees[0];
  if (worktree === undefined) return;
  const projectDir = join(worktree.path, prepared.entry.packageRoot);
  const found = checkedPackages(prepared, projectPackages(projectDir));
  const extensions = found.flatMap((pkg) => {
    const modules = prepared.artefacts.files.map((file) => extensionModuleName(pkg, file.path));
    return modules.filter((name): name is string => name !== null).slice(0, 1);
  });
  const packages = [...found.map((pkg) => pkg.name), ...extensions];
  if (packages.length === 0) return;
  const script =
    'import importlib, os, sys\nfor name in sys.argv[1:]:\n    module = importlib.import_module(name)\n    ' +
    'print(name, ' +
    'os.path.realpath(module.__file__ or ""))';
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(prepared.environment.python, ['-c', script, ...packages], {
      cwd: projectDir,
      env: testEnvironment({ python: prepared.environment.python, projectDir, env: prepared.entry.env }),
    }));
  } catch (error) {
    const stderr = stderrTail(error);
    throw new RepocodError(
      'environment-failed',
      `${prepared.entry.name}: its package(s) ${packages.join(', ')} cannot be imported in a worktree ` +
        `(${worktree.path}):\n${stderr}\n` +
        (prepared.entry.importCheck === undefined
          ? 'A package folder that only holds development tools the environment does not install can be left ' +
            "out of this check: name the project's own packages in the manifest's import_check. "
          : '') +
        (prepared.artefacts.files.length === 0
          ? 'No build artefacts were found where the environment imports the project from: for a compiled ' +
            'project, install it so that its extensions are built (an editable setuptools install builds ' +
            'them in the checkout; a meson-python project needs a regular, non-editable install).'
          : `Its ${prepared.artefacts.files.length} build artefact(s) were copied into the worktree; ` +
            'one the import needs may be missing.'),
    );
  }
  const inside = realpathSync(worktree.path) + sep;
  const elsewhere = stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([, path]) => path !== undefined && path !== '' && !path.startsWith(inside));
  if (elsewhere.length > 0) {
    throw new RepocodError(
      'environment-failed',
      `${prepared.entry.name}: in a worktree, ${elsewhere
        .map(([name, path]) => `${name} is imported from ${path}`)
        .join('; ')}, not from the worktree ${worktree.path}; ` +
        "patches would be ignored. An import hook that serves the checkout (meson-python's editable loader) " +
        'needs a regular install instead (pip: [--no-build-isolation, .]): its built extensions are then ' +
        'copied into each worktree.',
    );
  }
}
