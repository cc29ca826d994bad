/**
 * What the context classifier keeps of a parsed module: names, imports, classes and the references
 * each function's body makes, as plain data. No tree-sitter node survives into these records, so an
 * index of a whole repository holds no wasm memory.
 */

/** Where an import statement points, before it is resolved to a repository file. */
export interface ImportSource {
  /** Dotted module name as written after `from`/`import`, without leading dots; '' for `from . import x`. */
  readonly module: string;
  /** Number of leading dots: 0 for an absolute import. */
  readonly level: number;
}

/**
 * What an import binds a name to. `import a.b.c` binds `a` to module `a`; `import a.b as m` binds `m`
 * to module `a.b`; `from x import y as z` binds `z` to member `y` of `x`.
 */
export type ImportBinding =
  | (ImportSource & { readonly kind: 'module' })
  | (ImportSource & { readonly kind: 'member'; readonly member: string });

/** A `def` or `class` as a dependency target. */
export interface DefinitionSite {
  readonly file: string;
  readonly qualname: string;
  /** `method` for a `def` directly in a class body. */
  readonly kind: 'function' | 'class' | 'method';
  /** Line of the `def`/`class` keyword. */
  readonly line: number;
}

/**
 * Everything one scope binds to one name. A name present in a scope's map is local to that scope
 * even when both fields are empty (a parameter, an assignment, a loop variable…).
 */
export interface ScopeBinding {
  /**
   * The `def` or `class` bound to the name, if any. A definition wins over imports and assignments
   * of the same name: `f = cache(f)` or `x = property(x)` rebind a definition without replacing it
   * as the thing the code means.
   */
  readonly definition: DefinitionSite | null;
  /** Import statements binding the name, in source order (`try: from a import x / except: from b import x`). */
  readonly imports: readonly ImportBinding[];
}

/** `a.b.c` as a root name and the attribute names after it. */
export interface NameChain {
  readonly root: string;
  readonly attributes: readonly string[];
}

/** How the root of a reference is bound, decided lexically inside the function it belongs to. */
export type ReferenceOrigin =
  /** Not bound inside the function: looked up in enclosing functions, then the module. */
  | { readonly kind: 'free'; readonly name: string; readonly declaredGlobal: boolean }
  /** Bound by an import statement inside the function (or a scope nested in it). */
  | { readonly kind: 'import'; readonly imports: readonly ImportBinding[] }
  /** The method's first parameter (`self`, `cls`), or `type(self)`. */
  | { readonly kind: 'receiver'; readonly via: 'self' | 'cls' }
  /** `super()` or `super(C, self)`; `classArgument` is `C` when given. */
  | { readonly kind: 'super'; readonly classArgument: NameChain | null };

/** A load of a name or an attribute chain somewhere in a function's body. */
export interface BodyReference {
  /** 1-based line where the expression starts. */
  readonly line: number;
  /** The root as written: `self`, `helpers`, `super()`, `type(self)`. */
  readonly rootText: string;
  readonly attributes: readonly string[];
  readonly origin: ReferenceOrigin;
}

/**
 * What a call's callee root is bound to: a reference's origin, or a `def` or `class` bound inside the
 * function itself (a nested helper the solution defines and calls).
 */
export type CallOrigin = ReferenceOrigin | { readonly kind: 'nested'; readonly site: DefinitionSite };

/**
 * A call somewhere in a function's body (nested scopes included) whose callee is a name, an attribute
 * chain on a name, or a method of an instance made on the spot (`C(...).m`): what the call-based level
 * modes (REPOCOD's labellings) read. Calls on parameters and plain locals are not kept.
 */
export interface CallSite {
  /** 1-based line where the call starts. */
  readonly line: number;
  /** The callee as written, whitespace collapsed; an instance's arguments shown as `(...)`: `C(...).m`. */
  readonly callee: string;
  /** The root as written: `f`, `self`, `helpers`, `super()`, `type(self)`, `C`. */
  readonly rootText: string;
  readonly attributes: readonly string[];
  /** The root is called first and the attributes looked up on what it returns: `C(...).m(...)`. */
  readonly onInstance: boolean;
  readonly origin: CallOrigin;
}

export interface FunctionSummary {
  readonly qualname: string;
  /** Line of the `def` keyword (the FunctionRecord's signatureSpan.start). */
  readonly line: number;
  readonly endLine: number;
  /** The receiver the first parameter stands for; null for functions and static methods. */
  readonly receiver: 'self' | 'cls' | null;
  /** The first positional parameter's name (`self`, `cls`, or whatever the method calls it). */
  readonly firstParameter: string | null;
  /** Names local to the function (parameters included), for functions nested in it. */
  readonly bindings: ReadonlyMap<string, ScopeBinding>;
  /** Names the function declares `global`. */
  readonly globals: ReadonlySet<string>;
  /**
   * Every name and attribute load of the body (nested scopes included) whose root is not a plain
   * local: candidates for dependencies. Empty when the index was told not to keep them.
   */
  readonly references: readonly BodyReference[];
  /** Every call of the body (nested scopes included) with a callee we can name; empty like `references`. */
  readonly calls: readonly CallSite[];
}

export interface ClassSummary {
  readonly qualname: string;
  readonly line: number;
  readonly endLine: number;
  /**
   * Base class expressions that are names or attribute chains (`Base`, `models.Record`,
   * `Generic[T]` → `Generic`).
   */
  readonly bases: readonly NameChain[];
  /** Names bound in the class body: methods, nested classes, class attributes. */
  readonly members: ReadonlyMap<string, ScopeBinding>;
}

export interface ModuleSummary {
  readonly file: string;
  /** Module-level names: definitions, imports and assignments at the top of the file or under if/try/with. */
  readonly bindings: ReadonlyMap<string, ScopeBinding>;
  /** `from x import *` at module level, in source order. */
  readonly starImports: readonly ImportSource[];
  /** A literal `__all__`, or null when there is none or it is computed. */
  readonly exportedNames: readonly string[] | null;
  readonly classes: readonly ClassSummary[];
  readonly functions: readonly FunctionSummary[];
}
