import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';

/** Folders that hold no source of the repository itself: caches and installed packages. */
const SKIPPED_FOLDERS = new Set(['__pycache__', 'node_modules', 'site-packages']);
/** Build outputs, copies of the sources, skipped at the top only (a package may be named `build`). */
const SKIPPED_TOP_FOLDERS = new Set(['build', 'dist']);

/** Throws the error a user can act on when `root` is not a folder to extract. */
export function assertRepositoryFolder(root: string): void {
  if (!existsSync(root)) {
    throw new RepocodError(
      'path-not-found',
      `${root}: no such file or directory; give the path of a repository checkout`,
    );
  }
  if (!statSync(root).isDirectory()) {
    throw new RepocodError('not-a-directory', `${root}: not a directory; give the path of a repository checkout`);
  }
}

/**
 * Every `.py` file under `root`, as sorted repository-relative `/` paths. Hidden folders, caches,
 * virtual environments (a folder with pyvenv.cfg) and symbolic links are not followed: they are not
 * the repository's own code, and links could loop.
 */
export function listPythonFiles(root: string): string[] {
  assertRepositoryFolder(root);
  const found: string[] = [];
  const visit = (relative: string): void => {
    const absolute = relative === '' ? root : join(root, relative);
    let entries: Dirent[];
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch (error) {
      throw new RepocodError(
        'file-unreadable',
        `${absolute}: cannot list the folder (${(error as NodeJS.ErrnoException).code ?? String(error)}); check its ` +
          `permissions`,
      );
    }
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
        if (relative === '' && SKIPPED_TOP_FOLDERS.has(entry.name)) continue;
        if (existsSync(join(root, path, 'pyvenv.cfg'))) continue;
        visit(path);
      } else if (entry.isFile() && entry.name.endsWith('.py')) {
        found.push(path);
      }
    }
  };
  visit('');
  return found.sort();
}
