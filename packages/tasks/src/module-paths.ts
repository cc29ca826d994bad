import type { ImportSource } from './module-summary.js';

/**
 * A module of the repository: `path` is its dotted name as a folder path (`pkg/sub/mod`), `file` the
 * `.py` file that defines it, or null for a namespace package (a folder of modules without
 * `__init__.py`), which has submodules but no names of its own.
 */
export interface ModuleRef {
  readonly path: string;
  readonly file: string | null;
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function join(folder: string, relative: string): string {
  if (folder === '') return relative;
  return relative === '' ? folder : `${folder}/${relative}`;
}

/** `pkg/mod.py` → `pkg/mod`; `pkg/__init__.py` → `pkg`. */
export function modulePathOf(file: string): string {
  const withoutSuffix = file.replace(/\.py$/, '');
  if (withoutSuffix === '__init__') return '';
  return withoutSuffix.endsWith('/__init__') ? withoutSuffix.slice(0, -'/__init__'.length) : withoutSuffix;
}

/**
 * Maps import statements to repository files by path alone, as Python would find them with the
 * repository's source folders on `sys.path`. Those folders are not configured anywhere, so they are
 * inferred: the folder above each top-level package (the checkout root, `src/`, or a deeper one such
 * as plotly's `packages/python/plotly/`), and for a loose script the script's own folder (Python puts
 * it first on `sys.path`, and pytest's rootdir insertion does the same for tests). Anything that
 * does not map to a file here is the standard library or a third-party package.
 */
export class ModuleLocator {
  private readonly fileByPath = new Map<string, string>();
  private readonly folders = new Set<string>();
  private readonly packageFolders = new Set<string>();
  private readonly sourceRoots: readonly string[];

  constructor(files: Iterable<string>) {
    for (const file of files) {
      const path = modulePathOf(file);
      const isPackage = file === '__init__.py' || file.endsWith('/__init__.py');
      // A package folder shadows a module file of the same name, as in Python.
      if (isPackage || !this.fileByPath.has(path)) this.fileByPath.set(path, file);
      if (isPackage) this.packageFolders.add(path);
      for (let folder = folderOf(file); folder !== ''; folder = folderOf(folder)) this.folders.add(folder);
    }
    const packageRoots = [...this.packageFolders]
      .filter((folder) => folder !== '' && !this.packageFolders.has(folderOf(folder)))
      .map(folderOf);
    const depth = (folder: string): number => (folder === '' ? 0 : folder.split('/').length);
    const ordered = [...new Set(packageRoots)].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
    this.sourceRoots = [...new Set(['', 'src', ...ordered])];
  }

  /** The folder a file's absolute imports start from: the folder above its outermost package. */
  rootOf(file: string): string {
    let folder = folderOf(file);
    while (folder !== '' && this.packageFolders.has(folder)) folder = folderOf(folder);
    return folder;
  }

  /** The module at a folder path, or null when the repository has none there. */
  find(path: string): ModuleRef | null {
    const file = this.fileByPath.get(path);
    if (file !== undefined) return { path, file };
    return path === '' || this.folders.has(path) ? { path, file: null } : null;
  }

  /** The module an import statement in `fromFile` names, or null when it is not in the repository. */
  locate(source: ImportSource, fromFile: string): ModuleRef | null {
    const relative = source.module
      .split('.')
      .filter((part) => part !== '')
      .join('/');
    if (source.level === 0) return relative === '' ? null : this.locateAbsolute(relative, fromFile);
    // `.` is the importing file's own package (for `__init__.py` too); each further dot goes one up.
    let folder = folderOf(fromFile);
    for (let up = 1; up < source.level; up++) {
      if (folder === '') return null;
      folder = folderOf(folder);
    }
    return this.find(join(folder, relative));
  }

  submodule(module: ModuleRef, name: string): ModuleRef | null {
    return this.find(join(module.path, name));
  }

  /**
   * The importing file's own root first, then the other source roots. A real module anywhere beats
   * a bare folder, so that a data folder named like a package never hides the package.
   */
  private locateAbsolute(relative: string, fromFile: string): ModuleRef | null {
    const roots = [...new Set([this.rootOf(fromFile), ...this.sourceRoots])];
    for (const root of roots) {
      const path = join(root, relative);
      const file = this.fileByPath.get(path);
      if (file !== undefined) return { path, file };
    }
    for (const root of roots) {
      const path = join(root, relative);
      if (this.folders.has(path)) return { path, file: null };
    }
    return null;
  }
}
