import { checkHarnessShape } from '@repocod/runner';
import type { MutationTarget } from './mutation-target.js';

/**
 * The plans mining writes for the runner's plugins (harness/repocod_coverage.py, repocod_mutate.py),
 * built here only, each checked against the harness protocol before it leaves (the plugins check it
 * again when they read it). Their JSON is part of a job's hash: the same plan must keep its bytes.
 */

/** What the traced run maps to tests: each target's body lines. */
export function coveragePlan(packageRoot: string, targets: readonly MutationTarget[]): string {
  const plan = {
    packageRoot,
    targets: targets.map(({ id, file, bodyStart, bodyEnd }) => ({ id, file, bodyStart, bodyEnd })),
  };
  checkHarnessShape('coveragePlan', plan, 'the coverage plan');
  for (const target of plan.targets) checkHarnessShape('coverageTarget', target, `the coverage plan, ${target.id}`);
  return JSON.stringify(plan);
}

export interface MutationEntry {
  readonly target: MutationTarget;
  /** The tests to run with its mutation swapped in. */
  readonly candidates: readonly string[];
  /** Whether the mutation must also be written to the file (code read from disk at run time). */
  readonly onDisk: boolean;
}

/** An in-process batch: each target's mutation swapped in, in turn, for its candidate tests. */
export function mutationPlan(packageRoot: string, batch: readonly MutationEntry[]): string {
  const plan = {
    packageRoot,
    targets: batch.map(({ target, candidates, onDisk }) => ({
      id: target.id,
      file: target.file,
      name: target.name,
      qualname: target.qualname,
      firstLine: target.firstLine,
      bodyStart: target.bodyStart,
      bodyEnd: target.bodyEnd,
      replacement: target.replacement,
      tests: candidates,
      onDisk,
    })),
  };
  checkHarnessShape('mutationPlan', plan, 'the mutation plan');
  for (const target of plan.targets) checkHarnessShape('mutationTarget', target, `the mutation plan, ${target.id}`);
  return JSON.stringify(plan);
}
