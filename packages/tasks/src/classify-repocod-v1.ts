import type { LevelCall, LevelLabel, LevelRule } from '@repocod/core';
import { levelOfCalls } from '@repocod/core';
import type { ContextTarget } from './classify-context.js';
import { compareLevelCalls, indexedTarget, isTargetSite, levelCall, solutionStartLine } from './classify-context.js';
import type { CallSite, DefinitionSite, FunctionSummary, ImportBinding, ScopeBinding } from './module-summary.js';
import type { RepositoryIndex, Resolution } from './repository-index.js';

/**
 * REPOCOD's first labelling (the one REPOCOD-Lite was selected with), read from the paper appendix's
 * words ("calls functions from other files", "calls to functions within the same file") with the
 * resolution a simple tool has. Only calls in the solution count (a name read, passed or tested with
 * `isinstance` never does):
 *
 * - repository-level: `f(...)` where `f` comes from a relative import (`from .m import f`, at module level
 *   or in the function, re-exports followed) and is a function of another file; or `C.m(...)` /
 *   `C(...).m(...)` where `C` is a relatively imported class;
 * - file-level: `g(...)` to a function of the target's own file, `self.m(...)` / `cls.m(...)` to a method
 *   of the enclosing class's own body (not inherited), a call of a function defined inside the target;
 * - otherwise self-contained.
 *
 * Never counted: absolute imports of the project's own package, instantiating a class, module-attribute
 * calls (`mod.f(...)`), inherited or `super()` methods, calls on locals and parameters, the target itself.
 * docs/tasks.md gives the measurements against REPOCOD's published mix that this reading fits.
 */
export function classifyRepocodV1(index: RepositoryIndex, target: ContextTarget): LevelLabel {
  const fn = indexedTarget(index, target);
  const first = solutionStartLine(target);
  const calls: LevelCall[] = [];
  for (const call of fn.calls) {
    if (call.line < first || call.line > target.definitionSpan.end) continue;
    const counted = countCall(index, target, fn, call);
    if (counted === null || isTargetSite(target, counted.site)) continue;
    calls.push(levelCall(target, call.line, call.callee, counted.site, counted.rule));
  }
  calls.sort(compareLevelCalls);
  return { level: levelOfCalls(calls), calls };
}

interface Counted {
  readonly site: DefinitionSite;
  readonly rule: LevelRule;
}

function countCall(index: RepositoryIndex, target: ContextTarget, fn: FunctionSummary, call: CallSite): Counted | null {
  const origin = call.origin;
  switch (origin.kind) {
    case 'nested':
      return call.attributes.length === 0 && origin.site.kind !== 'class'
        ? { site: origin.site, rule: 'nested-def' }
        : null;
    case 'receiver':
      return call.attributes.length === 1 && !call.onInstance ? ownClassMethod(index, target, fn, call) : null;
    case 'super':
      return null;
    case 'import':
      return throughImports(index, target.file, origin.imports, call);
    case 'free': {
      const bound = index.freeBinding(target.file, fn, origin.name, origin.declaredGlobal);
      if (bound === null) return null;
      if (bound.kind === 'star') {
        for (const source of bound.sources) {
          if (source.level === 0) continue;
          const member = index.starImportedMember(target.file, source, origin.name);
          const counted = member === null ? null : relativeTarget(index, member, call);
          if (counted !== null) return counted;
        }
        return null;
      }
      return fromBinding(index, target.file, bound.binding, call);
    }
  }
}

/** A plain name: the file's own function, else what its relative imports bring. */
function fromBinding(index: RepositoryIndex, file: string, binding: ScopeBinding, call: CallSite): Counted | null {
  const definition = binding.definition;
  if (definition !== null) {
    // A class of the file instantiated, or its attribute called, is not a call of a function of the file.
    return call.attributes.length === 0 && definition.kind === 'function'
      ? { site: definition, rule: 'same-file-function' }
      : null;
  }
  return throughImports(index, file, binding.imports, call);
}

/** Only relative imports lead out of the file; an absolute import of the package resolves to nothing. */
function throughImports(
  index: RepositoryIndex,
  file: string,
  imports: readonly ImportBinding[],
  call: CallSite,
): Counted | null {
  for (const binding of imports) {
    if (binding.level === 0 || binding.kind !== 'member') continue;
    const resolution = index.resolveImport(file, binding);
    const counted = resolution === null ? null : relativeTarget(index, resolution, call);
    if (counted !== null) return counted;
  }
  return null;
}

/** `f(...)` of a relatively imported function, or `C.m(...)` / `C(...).m(...)` of a relatively imported class. */
function relativeTarget(index: RepositoryIndex, resolution: Resolution, call: CallSite): Counted | null {
  if (resolution.kind !== 'definition') return null;
  const site = resolution.site;
  if (call.attributes.length === 0) {
    if (call.onInstance || site.kind !== 'function') return null;
    return { site, rule: 'relative-import' };
  }
  if (site.kind !== 'class' || call.attributes.length !== 1) return null;
  const member = index.classMember(site, call.attributes[0] as string);
  if (member?.kind !== 'definition' || member.site.kind === 'class') return null;
  return { site: member.site, rule: 'relative-class-method' };
}

/** `self.m(...)` / `cls.m(...)` where `m` is a `def` of the enclosing class's own body. */
function ownClassMethod(
  index: RepositoryIndex,
  target: ContextTarget,
  fn: FunctionSummary,
  call: CallSite,
): Counted | null {
  const owner = index.enclosingClassSummary(target.file, fn);
  const definition = owner?.members.get(call.attributes[0] as string)?.definition ?? null;
  return definition === null || definition.kind !== 'method' ? null : { site: definition, rule: 'own-class-method' };
}
