import type { FunctionRecord, LevelCall, LevelLabel, LevelRule } from '@repocod/core';
import { levelOfCalls, RepocodError } from '@repocod/core';
import type { ContextLevel, Dependency, DependencyVia } from './context-level.js';
import { levelOf } from './context-level.js';
import type { BodyReference, DefinitionSite, FunctionSummary } from './module-summary.js';
import type { AttributeWalk, RepositoryIndex, Resolution } from './repository-index.js';

/** The parts of a FunctionRecord the classifier needs (a FunctionRecord itself will do). */
export type ContextTarget = Pick<
  FunctionRecord,
  'file' | 'qualname' | 'definitionSpan' | 'docstringSpan' | 'signatureSpan'
>;

export interface ContextClassification {
  readonly level: ContextLevel;
  /** Sorted by file, line, then name; one entry per spelling of each definition. */
  readonly dependencies: readonly Dependency[];
}

export interface Found extends AttributeWalk {
  readonly via: DependencyVia;
}

/**
 * REPOCOD's context level of a target: the repository-defined functions, methods and classes its
 * canonical solution (the lines after the docstring, or after the signature when there is none) uses,
 * and where they live. Names in the signature, decorators and docstring are not the solution; the
 * target itself (recursion) is not context.
 */
export function classifyContext(index: RepositoryIndex, target: ContextTarget): ContextClassification {
  const dependencies = dependencyUses(index, target)
    .map((use) => use.dependency)
    .sort(compareDependencies);
  return { level: levelOf(target.file, dependencies), dependencies };
}

/**
 * The `deps` mode as a LevelLabel: the same dependencies as `classifyContext`, each with the line of
 * its first use in the solution, so that `repocod show` can point at it as at a call of the other modes.
 */
export function classifyDeps(index: RepositoryIndex, target: ContextTarget): LevelLabel {
  const calls = dependencyUses(index, target)
    .map(({ dependency, line }) => levelCall(target, line, dependency.name, dependency, 'resolved'))
    .sort(compareLevelCalls);
  return { level: levelOfCalls(calls), calls };
}

/** A use at `line` resolved to `site`: file-level when the site is in the target's file, else repository-level. */
export function levelCall(
  target: ContextTarget,
  line: number,
  callee: string,
  site: Pick<DefinitionSite, 'file' | 'qualname' | 'line'>,
  rule: LevelRule,
): LevelCall {
  return {
    line,
    callee,
    file: site.file,
    qualname: site.qualname,
    definitionLine: site.line,
    rule,
    level: site.file === target.file ? 'file-level' : 'repo-level',
  };
}

/** Orders a mode's calls by line, then callee, then what they resolve to. */
export function compareLevelCalls(a: LevelCall, b: LevelCall): number {
  if (a.line !== b.line) return a.line - b.line;
  if (a.callee !== b.callee) return a.callee < b.callee ? -1 : 1;
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.definitionLine - b.definitionLine;
}

/** The function the target's `def` line names in the index; a target outside it is a usage error. */
export function indexedTarget(index: RepositoryIndex, target: ContextTarget): FunctionSummary {
  const defLine = target.signatureSpan.start;
  const fn = index.functionAt(target.file, target.qualname, defLine);
  if (fn === undefined) {
    throw new RepocodError(
      'usage',
      `${target.file}:${defLine}: function ${target.qualname} is not in the repository index; build the index from ` +
        `the ` +
        `same sources the function was extracted from`,
    );
  }
  return fn;
}

/** The first line of the canonical solution: after the docstring, or after the signature when there is none. */
export function solutionStartLine(target: ContextTarget): number {
  return (target.docstringSpan?.end ?? target.signatureSpan.end) + 1;
}

/** Whether a definition is the target itself (recursion is not context). */
export function isTargetSite(target: ContextTarget, site: DefinitionSite): boolean {
  return site.file === target.file && site.line === target.signatureSpan.start && site.qualname === target.qualname;
}

/** Each distinct dependency of the solution (one per spelling of each definition) with its first use's line. */
export function dependencyUses(
  index: RepositoryIndex,
  target: ContextTarget,
): { readonly dependency: Dependency; readonly line: number }[] {
  const fn = indexedTarget(index, target);
  const solutionStart = solutionStartLine(target);
  const unique = new Map<string, { dependency: Dependency; line: number }>();
  for (const reference of fn.references) {
    if (reference.line < solutionStart || reference.line > target.definitionSpan.end) continue;
    const found = resolveReference(index, target.file, fn, reference);
    if (found === null || isTargetSite(target, found.site)) continue;
    const name =
      reference.rootText +
      reference.attributes
        .slice(0, found.consumed)
        .map((attribute) => `.${attribute}`)
        .join('');
    const { site } = found;
    const dependency: Dependency = {
      name,
      kind: site.kind,
      qualname: site.qualname,
      file: site.file,
      line: site.line,
      via: found.via,
    };
    const key = `${name}\0${site.file}\0${site.line}`;
    if (!unique.has(key)) unique.set(key, { dependency, line: reference.line });
  }
  return [...unique.values()];
}

function compareDependencies(a: Dependency, b: Dependency): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The definition a reference reaches, following its root's binding and then its attributes. */
export function resolveReference(
  index: RepositoryIndex,
  file: string,
  fn: FunctionSummary,
  reference: BodyReference,
): Found | null {
  const origin = reference.origin;
  switch (origin.kind) {
    case 'free': {
      const closure = origin.declaredGlobal ? null : index.enclosingReceiver(file, fn, origin.name);
      if (closure !== null)
        return withVia(walkMembers(index, closure.owner, null, reference.attributes, 0), closure.via);
      const root = index.lookupFree(file, fn, origin.name, origin.declaredGlobal);
      return root === null ? null : withVia(index.walkAttributes(root.resolution, reference.attributes), root.via);
    }
    case 'import': {
      const resolution =
        origin.imports.map((binding) => index.resolveImport(file, binding)).find((found) => found !== null) ?? null;
      return resolution === null ? null : withVia(index.walkAttributes(resolution, reference.attributes), 'import');
    }
    case 'receiver': {
      const owner = index.enclosingClassOf(file, fn);
      // `self.__class__.m` is `self.m` looked up on the class.
      const skip = reference.attributes[0] === '__class__' ? 1 : 0;
      return owner === null ? null : withVia(walkMembers(index, owner, null, reference.attributes, skip), origin.via);
    }
    case 'super': {
      const owner = index.enclosingClassOf(file, fn);
      if (owner === null) return null;
      let after = owner;
      if (origin.classArgument !== null) {
        // super(C, self) starts after C in the MRO of the instance's class, here the enclosing one.
        const named = index.lookupFree(file, fn, origin.classArgument.root, false);
        const walked = named === null ? null : index.walkAttributes(named.resolution, origin.classArgument.attributes);
        const inOrder =
          walked !== null &&
          index.mro(owner).some((entry) => entry.file === walked.site.file && entry.line === walked.site.line);
        if (walked !== null && inOrder) after = walked.site;
      }
      return withVia(walkMembers(index, owner, after, reference.attributes, 0), 'super');
    }
  }
}

/**
 * `receiver.a.b…`: `a` is looked up on the class (after `after` in its MRO when given); the class
 * itself is not a dependency, only what is found on it.
 */
function walkMembers(
  index: RepositoryIndex,
  owner: DefinitionSite,
  after: DefinitionSite | null,
  attributes: readonly string[],
  skip: number,
): AttributeWalk | null {
  const first = attributes[skip];
  if (first === undefined) return null;
  const member: Resolution | null = index.classMember(owner, first, after);
  if (member === null) return null;
  const rest = index.walkAttributes(member, attributes.slice(skip + 1));
  return rest === null ? null : { site: rest.site, consumed: skip + 1 + rest.consumed };
}

function withVia(walk: AttributeWalk | null, via: DependencyVia): Found | null {
  return walk === null ? null : { ...walk, via };
}
