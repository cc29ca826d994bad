import type { FunctionRecord } from '@repocod/core';
import { parsePythonText } from '@repocod/python';
import type { Parser } from 'web-tree-sitter';
import { linearize } from './c3-linearization.js';
import type { ModuleRef } from './module-paths.js';
import { ModuleLocator } from './module-paths.js';
import type {
  ClassSummary,
  DefinitionSite,
  FunctionSummary,
  ImportBinding,
  ImportSource,
  ModuleSummary,
  NameChain,
  ScopeBinding,
} from './module-summary.js';
import { summarizeModule } from './summarize-module.js';

/** What a name or attribute resolves to in the repository. */
export type Resolution =
  | { readonly kind: 'module'; readonly module: ModuleRef }
  | { readonly kind: 'definition'; readonly site: DefinitionSite };

/** A resolution and the first step that reached it: a definition of the scope, or an import. */
export interface NameResolution {
  readonly resolution: Resolution;
  readonly via: 'local' | 'import';
}

/**
 * What binds a free name as seen from a function, before anything is resolved: the statement-level
 * binding of an enclosing function or the module, or the module's star imports.
 */
export type FreeBinding =
  | { readonly kind: 'binding'; readonly binding: ScopeBinding; readonly scope: 'function' | 'module' }
  | { readonly kind: 'star'; readonly sources: readonly ImportSource[] };

/** The last definition reached along an attribute chain, and how many attributes it took. */
export interface AttributeWalk {
  readonly site: DefinitionSite;
  readonly consumed: number;
}

export interface RepositoryIndexOptions {
  /**
   * Which functions keep the references of their bodies (all by default). Functions left out can
   * still be enclosing scopes and dependencies, but cannot be classified.
   */
  readonly keepReferences?: (fn: FunctionRecord) => boolean;
}

type EnclosingScope =
  | { readonly kind: 'function'; readonly summary: FunctionSummary }
  | { readonly kind: 'class'; readonly summary: ClassSummary };

function siteKey(site: Pick<DefinitionSite, 'file' | 'line'>): string {
  return `${site.file}:${site.line}`;
}

function classSite(file: string, summary: ClassSummary): DefinitionSite {
  return { file, qualname: summary.qualname, kind: 'class', line: summary.line };
}

/**
 * Builds the index from every Python file of a repository (path → source text; test files may be
 * included: they only add definitions). Paths not ending in `.py` are not modules and are skipped.
 * Each tree is deleted as soon as its module is summarized.
 */
export function buildRepositoryIndex(
  parser: Parser,
  sources: ReadonlyMap<string, string>,
  options: RepositoryIndexOptions = {},
): RepositoryIndex {
  const modules = new Map<string, ModuleSummary>();
  const files = [...sources.keys()].filter((file) => file.endsWith('.py')).sort();
  for (const file of files) {
    const text = sources.get(file) ?? '';
    const parsed = parsePythonText(parser, text, file);
    try {
      const filter = options.keepReferences;
      const kept =
        filter === undefined
          ? null
          : new Set(parsed.functions.filter(filter).map((fn) => `${fn.qualname}\0${fn.signatureSpan.start}`));
      const keep =
        kept === null ? undefined : (qualname: string, line: number): boolean => kept.has(`${qualname}\0${line}`);
      modules.set(file, summarizeModule(parsed.tree.rootNode, file, keep));
    } finally {
      parsed.tree.delete();
    }
  }
  return new RepositoryIndex(modules);
}

/**
 * The repository's modules as plain data, with Python's name resolution over them: module names,
 * imports (absolute, relative, aliased, star, re-exported through `__init__.py`), class members
 * through the MRO. Resolution is lazy and memoized; cycles in imports or bases are cut, not followed.
 */
export class RepositoryIndex {
  readonly locator: ModuleLocator;
  private readonly functionsByKey = new Map<string, FunctionSummary>();
  private readonly classesByKey = new Map<string, ClassSummary>();
  private readonly memberCache = new Map<string, Resolution | null>();
  private readonly mroCache = new Map<string, readonly DefinitionSite[]>();
  private readonly inProgress = new Set<string>();
  /**
   * Bumped whenever a cycle is cut. A result computed while a cut happened may be incomplete (it
   * depends on where the cycle was entered), so it is not cached.
   */
  private cycleCuts = 0;

  constructor(private readonly modules: ReadonlyMap<string, ModuleSummary>) {
    this.locator = new ModuleLocator(modules.keys());
    for (const [file, summary] of modules) {
      for (const fn of summary.functions) this.functionsByKey.set(`${file}\0${fn.qualname}\0${fn.line}`, fn);
      for (const cls of summary.classes) this.classesByKey.set(siteKey({ file, line: cls.line }), cls);
    }
  }

  get files(): readonly string[] {
    return [...this.modules.keys()];
  }

  module(file: string): ModuleSummary | undefined {
    return this.modules.get(file);
  }

  /** The function defined by the `def` at `line` of `file`. */
  functionAt(file: string, qualname: string, line: number): FunctionSummary | undefined {
    return this.functionsByKey.get(`${file}\0${qualname}\0${line}`);
  }

  /** The class whose body a method's `def` stands in, as a definition site. */
  enclosingClassOf(file: string, fn: FunctionSummary): DefinitionSite | null {
    const parent = this.enclosingScopes(file, fn.qualname, fn.line)[0];
    return parent?.kind === 'class' ? classSite(file, parent.summary) : null;
  }

  /**
   * When `name`, free in the nested function `fn`, is the receiver parameter of an enclosing method
   * (a closure over `self`), that method's class and what the receiver stands for.
   */
  enclosingReceiver(
    file: string,
    fn: FunctionSummary,
    name: string,
  ): { readonly owner: DefinitionSite; readonly via: 'self' | 'cls' } | null {
    const scopes = this.enclosingScopes(file, fn.qualname, fn.line);
    for (const [index, scope] of scopes.entries()) {
      if (scope.kind === 'class') continue;
      if (scope.summary.globals.has(name)) return null;
      if (!scope.summary.bindings.has(name)) continue;
      const owner = scopes[index + 1];
      const receiver = scope.summary.receiver;
      if (receiver === null || scope.summary.firstParameter !== name || owner?.kind !== 'class') return null;
      return { owner: classSite(file, owner.summary), via: receiver };
    }
    return null;
  }

  /**
   * A name that code of function `fn` does not bind itself: enclosing functions (class bodies are
   * not visible to their methods), then the module. `declaredGlobal` skips to the module.
   */
  lookupFree(file: string, fn: FunctionSummary, name: string, declaredGlobal: boolean): NameResolution | null {
    return declaredGlobal ? this.lookupInModule(file, name) : this.lookupFrom(file, fn.qualname, fn.line, name, false);
  }

  /**
   * The binding a name free in `fn` has, unresolved: enclosing functions first (class bodies are not
   * visible to their methods), then the module, then its star imports. A level mode that reads imports
   * as written (relative or absolute) needs the statement, not where it leads.
   */
  freeBinding(file: string, fn: FunctionSummary, name: string, declaredGlobal: boolean): FreeBinding | null {
    if (!declaredGlobal) {
      for (const scope of this.enclosingScopes(file, fn.qualname, fn.line)) {
        if (scope.kind === 'class') continue;
        if (scope.summary.globals.has(name)) break;
        const binding = scope.summary.bindings.get(name);
        if (binding !== undefined) return { kind: 'binding', binding, scope: 'function' };
      }
    }
    const summary = this.modules.get(file);
    if (summary === undefined) return null;
    const binding = summary.bindings.get(name);
    if (binding !== undefined) return { kind: 'binding', binding, scope: 'module' };
    return summary.starImports.length === 0 ? null : { kind: 'star', sources: summary.starImports };
  }

  /** `name` through `from source import *` of `file`, as Python finds it (null when not exported there). */
  starImportedMember(file: string, source: ImportSource, name: string): Resolution | null {
    return this.starMember(file, source, name);
  }

  /** The class whose body a method's `def` stands in, as the index holds it. */
  enclosingClassSummary(file: string, fn: FunctionSummary): ClassSummary | null {
    const parent = this.enclosingScopes(file, fn.qualname, fn.line)[0];
    return parent?.kind === 'class' ? parent.summary : null;
  }

  /** A module-level name: definition, then import, then star imports. */
  lookupInModule(file: string, name: string): NameResolution | null {
    const summary = this.modules.get(file);
    if (summary === undefined) return null;
    const binding = summary.bindings.get(name);
    if (binding !== undefined) return this.fromBinding(file, binding);
    for (const source of summary.starImports) {
      const resolution = this.starMember(file, source, name);
      if (resolution !== null) return { resolution, via: 'import' };
    }
    return null;
  }

  /** Where an import statement of `file` points, or null when not in the repository. */
  resolveImport(file: string, binding: ImportBinding): Resolution | null {
    const module = this.locator.locate(binding, file);
    if (module === null) return null;
    if (binding.kind === 'module') return { kind: 'module', module };
    // `from pkg import name`: pkg's attribute first, else the submodule pkg.name (Python's order).
    const member = this.memberOf(module, binding.member);
    if (member !== null) return member;
    const submodule = this.locator.submodule(module, binding.member);
    return submodule === null ? null : { kind: 'module', module: submodule };
  }

  /**
   * `module.name`: a name the module binds (following re-exports), one it star-imports, or else
   * its submodule. A name the module binds to a value or to something outside the repository
   * resolves to nothing.
   */
  memberOf(module: ModuleRef, name: string): Resolution | null {
    return this.guarded(this.memberCache, `member\0${module.file ?? module.path}\0${name}`, null, () => {
      const summary = module.file === null ? undefined : this.modules.get(module.file);
      if (summary !== undefined && module.file !== null) {
        const binding = summary.bindings.get(name);
        if (binding !== undefined) return this.fromBinding(module.file, binding)?.resolution ?? null;
        for (const source of summary.starImports) {
          const resolution = this.starMember(module.file, source, name);
          if (resolution !== null) return resolution;
        }
      }
      const submodule = this.locator.submodule(module, name);
      return submodule === null ? null : { kind: 'module', module: submodule };
    });
  }

  /**
   * `name` looked up on a class: the first class of its MRO whose body binds it (after `after`
   * when given, as `super()` does). A class attribute that is a plain value hides the bases' methods
   * and resolves to nothing.
   */
  classMember(site: DefinitionSite, name: string, after: DefinitionSite | null = null): Resolution | null {
    const order = this.mro(site);
    const start = after === null ? 0 : order.findIndex((entry) => siteKey(entry) === siteKey(after)) + 1;
    for (const entry of order.slice(Math.max(start, 0))) {
      const binding = this.classesByKey.get(siteKey(entry))?.members.get(name);
      if (binding !== undefined) return this.fromBinding(entry.file, binding)?.resolution ?? null;
    }
    return null;
  }

  /**
   * The class and its in-repository bases in C3 order; bases that do not resolve to a repository class are left out.
   */
  mro(site: DefinitionSite): readonly DefinitionSite[] {
    return this.guarded(this.mroCache, `mro\0${siteKey(site)}`, [site], () => {
      const summary = this.classesByKey.get(siteKey(site));
      if (summary === undefined) return [site];
      const bases: DefinitionSite[] = [];
      for (const chain of summary.bases) {
        const base = this.resolveBase(site.file, summary, chain);
        if (
          base !== null &&
          siteKey(base) !== siteKey(site) &&
          !bases.some((known) => siteKey(known) === siteKey(base))
        )
          bases.push(base);
      }
      return linearize(site, bases, (base) => this.mro(base), siteKey);
    });
  }

  /** Follows attributes from a resolution as far as the repository defines them. */
  walkAttributes(start: Resolution, attributes: readonly string[]): AttributeWalk | null {
    let current = start;
    let best: AttributeWalk | null = start.kind === 'definition' ? { site: start.site, consumed: 0 } : null;
    for (const [index, attribute] of attributes.entries()) {
      let next: Resolution | null = null;
      if (current.kind === 'module') next = this.memberOf(current.module, attribute);
      else if (current.site.kind === 'class') next = this.classMember(current.site, attribute);
      if (next === null) break;
      current = next;
      if (next.kind === 'definition') best = { site: next.site, consumed: index + 1 };
    }
    return best;
  }

  /** A base class expression, evaluated where the class statement stands. */
  private resolveBase(file: string, summary: ClassSummary, chain: NameChain): DefinitionSite | null {
    const root = this.lookupFrom(file, summary.qualname, summary.line, chain.root, true);
    if (root === null) return null;
    const walked = this.walkAttributes(root.resolution, chain.attributes);
    return walked !== null && walked.consumed === chain.attributes.length && walked.site.kind === 'class'
      ? walked.site
      : null;
  }

  /**
   * Python's lookup for code of the definition `qualname` at `line`: enclosing function scopes, then
   * the module. Class bodies are skipped, except the immediate one when `classBodyVisible` (the
   * bases of a nested class are evaluated in the outer class's body).
   */
  private lookupFrom(
    file: string,
    qualname: string,
    line: number,
    name: string,
    classBodyVisible: boolean,
  ): NameResolution | null {
    const scopes = this.enclosingScopes(file, qualname, line);
    for (const [index, scope] of scopes.entries()) {
      if (scope.kind === 'class') {
        const member = index === 0 && classBodyVisible ? scope.summary.members.get(name) : undefined;
        if (member !== undefined) return this.fromBinding(file, member);
        continue;
      }
      if (scope.summary.globals.has(name)) break;
      const binding = scope.summary.bindings.get(name);
      if (binding !== undefined) return this.fromBinding(file, binding);
    }
    return this.lookupInModule(file, name);
  }

  /**
   * The functions and classes around a definition, innermost first, read off its qualname
   * (`f.<locals>.C.m` → class `f.<locals>.C`, function `f`). A qualname can repeat in a file
   * (conditional definitions), so the one whose lines hold `line` is taken.
   */
  private enclosingScopes(file: string, qualname: string, line: number): EnclosingScope[] {
    const summary = this.modules.get(file);
    if (summary === undefined) return [];
    const parts = qualname.split('.');
    const scopes: EnclosingScope[] = [];
    for (let index = 0; index < parts.length - 1; index++) {
      if (parts[index] === '<locals>') continue;
      const prefix = parts.slice(0, index + 1).join('.');
      const contains = (entry: { qualname: string; line: number; endLine: number }): boolean =>
        entry.qualname === prefix && entry.line <= line && line <= entry.endLine;
      if (parts[index + 1] === '<locals>') {
        const fn = summary.functions.find(contains);
        if (fn !== undefined) scopes.push({ kind: 'function', summary: fn });
      } else {
        const cls = summary.classes.find(contains);
        if (cls !== undefined) scopes.push({ kind: 'class', summary: cls });
      }
    }
    return scopes.reverse();
  }

  /** A definition wins; otherwise the first import that resolves into the repository. */
  private fromBinding(file: string, binding: ScopeBinding): NameResolution | null {
    if (binding.definition !== null)
      return { resolution: { kind: 'definition', site: binding.definition }, via: 'local' };
    for (const target of binding.imports) {
      const resolution = this.resolveImport(file, target);
      if (resolution !== null) return { resolution, via: 'import' };
    }
    return null;
  }

  /** `name` through `from source import *`: only names the module exports (its `__all__`, else public names). */
  private starMember(file: string, source: ImportSource, name: string): Resolution | null {
    const module = this.locator.locate(source, file);
    if (module === null || module.file === null) return null;
    const exported = this.modules.get(module.file)?.exportedNames ?? null;
    if (exported === null ? name.startsWith('_') : !exported.includes(name)) return null;
    return this.memberOf(module, name);
  }

  /** Memoized evaluation with a cycle guard: re-entering a key in progress yields `onCycle`. */
  private guarded<T>(cache: Map<string, T>, key: string, onCycle: T, compute: () => T): T {
    if (cache.has(key)) return cache.get(key) as T;
    if (this.inProgress.has(key)) {
      this.cycleCuts++;
      return onCycle;
    }
    const cutsBefore = this.cycleCuts;
    this.inProgress.add(key);
    let result: T;
    try {
      result = compute();
    } finally {
      this.inProgress.delete(key);
    }
    if (this.cycleCuts === cutsBefore) cache.set(key, result);
    return result;
  }
}
