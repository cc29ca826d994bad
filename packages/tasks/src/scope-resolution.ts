import type { BodyReference, CallOrigin, CallSite, ReferenceOrigin } from './module-summary.js';
import type { MutableBinding, RawCall, RawReference, Scope } from './scope-tree.js';

type Lookup =
  | { readonly kind: 'free'; readonly declaredGlobal: boolean }
  | { readonly kind: 'bound'; readonly scope: Scope; readonly binding: MutableBinding };

/**
 * Python's lexical rule inside `boundary` (the function whose references are collected): the
 * scope itself, then enclosing scopes except class bodies (a method does not see its class's
 * names), up to the boundary. Beyond it the name is free: the index resolves it later.
 */
function lookupWithin(name: string, from: Scope, boundary: Scope): Lookup {
  for (let scope: Scope | null = from; scope !== null; scope = scope.parent) {
    if (scope.globals.has(name)) return { kind: 'free', declaredGlobal: true };
    const visible = scope === from || scope.kind !== 'class';
    const binding = scope.bindings.get(name);
    if (visible && binding !== undefined && !scope.nonlocals.has(name)) return { kind: 'bound', scope, binding };
    if (scope === boundary) break;
  }
  return { kind: 'free', declaredGlobal: false };
}

function originOf(reference: RawReference, from: Scope, boundary: Scope): ReferenceOrigin | null {
  const root = reference.root;
  if (root.kind === 'super')
    return boundary.receiver === null ? null : { kind: 'super', classArgument: root.classArgument };
  const found = lookupWithin(root.name, from, boundary);
  if (found.kind === 'free')
    return root.kind === 'name' ? { kind: 'free', name: root.name, declaredGlobal: found.declaredGlobal } : null;
  if (found.scope === boundary && boundary.receiver !== null && root.name === boundary.firstParameter) {
    return { kind: 'receiver', via: boundary.receiver };
  }
  if (root.kind !== 'name') return null;
  // Imports inside the function count; its parameters, locals and nested definitions do not.
  if (found.binding.definition === null && found.binding.imports.length > 0)
    return { kind: 'import', imports: [...found.binding.imports] };
  return null;
}

/** A call's root: as a reference's, or else a `def`/`class` the function binds itself (a nested helper). */
function callOriginOf(call: RawCall, from: Scope, boundary: Scope): CallOrigin | null {
  const origin = originOf(call, from, boundary);
  if (origin !== null || call.root.kind !== 'name') return origin;
  const found = lookupWithin(call.root.name, from, boundary);
  return found.kind === 'bound' && found.binding.definition !== null
    ? { kind: 'nested', site: found.binding.definition }
    : null;
}

/** What a function's body references and calls, in line order, each with the origin of its root. */
export interface ResolvedBody {
  readonly references: BodyReference[];
  readonly calls: CallSite[];
}

/**
 * Resolves the references and calls recorded in a function's scope and every scope nested in it
 * (lambdas, comprehensions, nested functions and classes); a root bound to a parameter or a local of
 * the function leads nowhere and is left out. Scopes are visited one after the other; line order reads
 * like the source (the sort is stable).
 */
export function resolveFunctionBody(boundary: Scope): ResolvedBody {
  const references: BodyReference[] = [];
  const calls: CallSite[] = [];
  const visit = (scope: Scope): void => {
    for (const reference of scope.references) {
      const origin = originOf(reference, scope, boundary);
      if (origin !== null)
        references.push({
          line: reference.line,
          rootText: reference.rootText,
          attributes: reference.attributes,
          origin,
        });
    }
    for (const call of scope.calls) {
      const origin = callOriginOf(call, scope, boundary);
      if (origin !== null) {
        const { line, callee, rootText, attributes, onInstance } = call;
        calls.push({ line, callee, rootText, attributes, onInstance, origin });
      }
    }
    for (const child of scope.children) visit(child);
  };
  visit(boundary);
  return {
    references: references.sort((a, b) => a.line - b.line),
    calls: calls.sort((a, b) => a.line - b.line),
  };
}
