import type { DefinitionSite, ImportBinding, NameChain } from './module-summary.js';

export type ScopeKind = 'module' | 'class' | 'function' | 'lambda' | 'comprehension';

/** How a raw reference's root was written, before it is resolved against the scopes. */
export type RawRoot =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'super'; readonly classArgument: NameChain | null }
  | { readonly kind: 'type-of'; readonly name: string };

export interface RawReference {
  readonly line: number;
  readonly rootText: string;
  readonly attributes: readonly string[];
  readonly root: RawRoot;
}

/** A call as written, before its root is resolved against the scopes. */
export interface RawCall extends RawReference {
  readonly callee: string;
  readonly onInstance: boolean;
}

export interface MutableBinding {
  definition: DefinitionSite | null;
  readonly imports: ImportBinding[];
}

/**
 * One scope of a module as the ScopeVisitor builds it: the names it binds, what its code references
 * and calls (still unresolved), and the scopes nested in it.
 */
export class Scope {
  readonly bindings = new Map<string, MutableBinding>();
  readonly globals = new Set<string>();
  readonly nonlocals = new Set<string>();
  readonly references: RawReference[] = [];
  readonly calls: RawCall[] = [];
  readonly children: Scope[] = [];
  /** Function and class scopes: the `def`/`class` line and the last code line. */
  line = 0;
  endLine = 0;
  /** Function scopes: the first positional parameter and what it stands for in a method. */
  firstParameter: string | null = null;
  receiver: 'self' | 'cls' | null = null;
  /** Class scopes. */
  bases: NameChain[] = [];

  constructor(
    readonly kind: ScopeKind,
    readonly parent: Scope | null,
    readonly qualname: string,
  ) {
    parent?.children.push(this);
  }

  /** The qualname Python gives a `def`/`class` named `name` defined in this scope. */
  qualnameOf(name: string): string {
    if (this.kind === 'module') return name;
    return this.kind === 'class' ? `${this.qualname}.${name}` : `${this.qualname}.<locals>.${name}`;
  }

  binding(name: string): MutableBinding {
    let found = this.bindings.get(name);
    if (found === undefined) {
      found = { definition: null, imports: [] };
      this.bindings.set(name, found);
    }
    return found;
  }
}
