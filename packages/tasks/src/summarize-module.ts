import type { Node } from 'web-tree-sitter';
import type { ClassSummary, FunctionSummary, ModuleSummary, ScopeBinding } from './module-summary.js';
import { resolveFunctionBody } from './scope-resolution.js';
import type { Scope } from './scope-tree.js';
import { ScopeVisitor } from './scope-visitor.js';

/** Decides which functions keep their body references (the others keep only their bindings). */
export type KeepReferences = (qualname: string, line: number) => boolean;

/** A scope's bindings as the summary keeps them: a name declared global or nonlocal is bound elsewhere. */
function freezeBindings(scope: Scope): Map<string, ScopeBinding> {
  const frozen = new Map<string, ScopeBinding>();
  for (const [name, binding] of scope.bindings) {
    // Declared global or nonlocal: assignments here bind the name elsewhere.
    if (scope.globals.has(name) || scope.nonlocals.has(name)) continue;
    frozen.set(name, { definition: binding.definition, imports: [...binding.imports] });
  }
  return frozen;
}

/**
 * Summarizes one parsed module for the repository index. `keepReferences` limits which functions
 * keep their body references (all by default): a pipeline that classifies only candidates keeps the
 * index small.
 */
export function summarizeModule(root: Node, file: string, keepReferences: KeepReferences = () => true): ModuleSummary {
  const visitor = new ScopeVisitor(file);
  visitor.run(root);
  const classes: ClassSummary[] = visitor.classScopes.map((scope) => ({
    qualname: scope.qualname,
    line: scope.line,
    endLine: scope.endLine,
    bases: scope.bases,
    members: freezeBindings(scope),
  }));
  const functions: FunctionSummary[] = visitor.functionScopes.map((scope) => {
    const body = keepReferences(scope.qualname, scope.line) ? resolveFunctionBody(scope) : null;
    return {
      qualname: scope.qualname,
      line: scope.line,
      endLine: scope.endLine,
      receiver: scope.receiver,
      firstParameter: scope.firstParameter,
      bindings: freezeBindings(scope),
      globals: new Set(scope.globals),
      references: body?.references ?? [],
      calls: body?.calls ?? [],
    };
  });
  return {
    file,
    bindings: freezeBindings(visitor.module),
    starImports: visitor.starImports,
    exportedNames: visitor.exportedNames,
    classes,
    functions,
  };
}
