import type { ContextLevel } from '@repocod/core';

export { type ContextLevel, CONTEXT_LEVELS } from '@repocod/core';

/** How a solution reached a definition: the first step of its resolution. */
export type DependencyVia =
  /** A plain name bound by a `def` or `class` of the module (or of an enclosing function). */
  | 'local'
  /** A name bound by an import statement, at module level or inside the function. */
  | 'import'
  /** An attribute of the method's instance receiver (`self.m`, `type(self).m`). */
  | 'self'
  /** An attribute of a classmethod's class receiver (`cls.m`). */
  | 'cls'
  /** An attribute of `super()`: looked up after the enclosing class in its MRO. */
  | 'super';

/** One repository-defined function, method or class a canonical solution uses. */
export interface Dependency {
  /** The expression as written in the solution, cut where the definition was found: `self.validate`, `helpers.parse`, `Item`. */
  readonly name: string;
  /** `method` for any `def` in a class body (properties, static and class methods included). */
  readonly kind: 'function' | 'class' | 'method';
  /** Python's `__qualname__` of the definition. */
  readonly qualname: string;
  /** Repository-relative path of the file that defines it. */
  readonly file: string;
  /** 1-based line of the `def` or `class` keyword (decorators excluded). */
  readonly line: number;
  readonly via: DependencyVia;
}

/**
 * none → self-contained; all in the target's own file → file-level; any elsewhere → repo-level.
 * The target itself must already be left out of `dependencies` (recursion is not context).
 */
export function levelOf(targetFile: string, dependencies: readonly Pick<Dependency, 'file'>[]): ContextLevel {
  if (dependencies.length === 0) return 'self-contained';
  return dependencies.every((dependency) => dependency.file === targetFile) ? 'file-level' : 'repo-level';
}
