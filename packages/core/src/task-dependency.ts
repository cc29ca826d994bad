import { asArray, asObject, numberField, oneOfField, parseStoredJson, stringField } from './json-shape.js';

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

export const DEPENDENCY_VIAS: readonly DependencyVia[] = ['local', 'import', 'self', 'cls', 'super'];

export type DependencyKind = 'function' | 'class' | 'method';

export const DEPENDENCY_KINDS: readonly DependencyKind[] = ['function', 'class', 'method'];

/**
 * One repository-defined function, method or class a canonical solution uses: what gives a task its
 * context level (stored in `tasks.dependencies`).
 */
export interface Dependency {
  /**
   * The expression as written in the solution, cut where the definition was found: `self.validate`, `helpers.parse`,
   * `Item`.
   */
  readonly name: string;
  /** `method` for any `def` in a class body (properties, static and class methods included). */
  readonly kind: DependencyKind;
  /** Python's `__qualname__` of the definition. */
  readonly qualname: string;
  /** Repository-relative path of the file that defines it. */
  readonly file: string;
  /** 1-based line of the `def` or `class` keyword (decorators excluded). */
  readonly line: number;
  readonly via: DependencyVia;
}

/** A stored `tasks.dependencies` value. */
export function decodeDependencies(text: string, where: string): Dependency[] {
  return asArray(parseStoredJson(text, where), where).map((item, index) => {
    const at = `${where}[${index}]`;
    const object = asObject(item, at);
    return {
      name: stringField(object, 'name', at),
      kind: oneOfField(object, 'kind', DEPENDENCY_KINDS, at),
      qualname: stringField(object, 'qualname', at),
      file: stringField(object, 'file', at),
      line: numberField(object, 'line', at),
      via: oneOfField(object, 'via', DEPENDENCY_VIAS, at),
    };
  });
}
