import type { LevelCall, LevelLabel } from '@repocod/core';
import { levelOfCalls } from '@repocod/core';
import type { ContextTarget } from './classify-context.js';
import {
  compareLevelCalls,
  dependencyUses,
  indexedTarget,
  isTargetSite,
  levelCall,
  resolveReference,
  solutionStartLine,
} from './classify-context.js';
import type { RepositoryIndex } from './repository-index.js';

/**
 * The ACL paper's corrected labelling, its appendix definition ("functions from other files" / "within
 * the same file") with full resolution: every repository function and method the canonical solution
 * uses (called, passed or read: `map(helper, xs)` uses `helper`), and every repository class it calls
 * (instantiating `C(...)` calls its constructor), found through every import (absolute ones of the
 * package included, re-exports followed), the module's own names, enclosing functions and the classes'
 * MRO (`self.m`, `cls.m`, `super().m`, `C.m`). Repository-level when one is defined in another file,
 * file-level when all are in the target's file, self-contained otherwise. A class only named (an
 * `isinstance` check, an `except` clause, an annotation) is not a function used: that is where it
 * differs from `deps`. docs/tasks.md gives the measurements behind this reading (calls alone fall
 * short of REPOCOD's counts of file- and repository-level tasks in more-itertools).
 */
export function classifyRepocodV4(index: RepositoryIndex, target: ContextTarget): LevelLabel {
  const calls: LevelCall[] = [];
  const seen = new Set<string>();
  const add = (call: LevelCall): void => {
    const key = `${call.callee}\0${call.file}\0${call.definitionLine}`;
    if (seen.has(key)) return;
    seen.add(key);
    calls.push(call);
  };
  for (const { dependency, line } of dependencyUses(index, target)) {
    if (dependency.kind === 'class') continue;
    add(levelCall(target, line, dependency.name, dependency, 'resolved'));
  }
  const fn = indexedTarget(index, target);
  const first = solutionStartLine(target);
  for (const call of fn.calls) {
    if (call.line < first || call.line > target.definitionSpan.end || call.onInstance) continue;
    const origin = call.origin;
    // A class the solution defines inside itself is part of the solution, not context.
    if (origin.kind === 'nested') continue;
    const found = resolveReference(index, target.file, fn, { ...call, origin });
    if (found === null || found.consumed !== call.attributes.length || found.site.kind !== 'class') continue;
    if (isTargetSite(target, found.site)) continue;
    add(levelCall(target, call.line, call.callee, found.site, 'instantiated'));
  }
  calls.sort(compareLevelCalls);
  return { level: levelOfCalls(calls), calls };
}
