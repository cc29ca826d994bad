import { posix } from 'node:path';
import { DERIVE_FILES, deriveRecipe, type RecipeProposal, WORKFLOW_FOLDER } from './derive-recipe.js';
import { commitTime, git, gitSucceeds } from './git.js';
import { findPythonInterpreter } from './python-interpreter.js';

/** The Python minors asked for when the manifest's version no longer fits: 3.8 to 3.14. */
const CANDIDATE_MINORS = [8, 9, 10, 11, 12, 13, 14].map((minor) => `3.${minor}`);

export interface DeriveAtOptions {
  readonly name: string;
  /** A working copy or a clone holding the commit. */
  readonly gitDir: string;
  readonly commit: string;
  /** The project's folder in the repository (the manifest's package_root). */
  readonly packageRoot: string;
  readonly manifestPython: string | null;
  /** The installed minors; default: those findPythonInterpreter finds here. */
  readonly installedPythons?: readonly string[];
}

/** deriveRecipe on the project files of `commit`, read with git (nothing is checked out). */
export async function deriveRecipeAt(options: DeriveAtOptions): Promise<RecipeProposal> {
  const { gitDir, commit } = options;
  const inRoot = (path: string): string => posix.normalize(posix.join(options.packageRoot, path));
  const texts = new Map<string, string>();
  for (const file of DERIVE_FILES) {
    const text = await fileAt(gitDir, commit, inRoot(file));
    if (text !== null) texts.set(file, text);
  }
  const listed = await git(gitDir, ['ls-tree', '--name-only', commit, '--', `${WORKFLOW_FOLDER}/`]).catch(() => '');
  for (const path of listed.split('\n').filter((line) => /\.ya?ml$/.test(line))) {
    const text = await fileAt(gitDir, commit, path);
    if (text !== null) texts.set(path, text);
  }
  return deriveRecipe({
    name: options.name,
    commit,
    committedAt: await commitTime(gitDir, commit),
    texts,
    manifestPython: options.manifestPython,
    installedPythons: options.installedPythons ?? (await installedPythons()),
  });
}

async function fileAt(gitDir: string, commit: string, path: string): Promise<string | null> {
  if (!(await gitSucceeds(gitDir, ['cat-file', '-e', `${commit}:${path}`]))) return null;
  return git(gitDir, ['show', `${commit}:${path}`]);
}

async function installedPythons(): Promise<string[]> {
  const found: string[] = [];
  for (const minor of CANDIDATE_MINORS) {
    const interpreter = await findPythonInterpreter(minor).catch(() => null);
    if (interpreter !== null) found.push(minor);
  }
  return found;
}
