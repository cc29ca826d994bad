import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionSite, EvaluationCheckout, SpecTask } from '@repocod/evaluate';
import { completionSite } from '@repocod/evaluate';
import type { loadPythonParser } from '@repocod/python';
import type { PreparedRepository } from '@repocod/runner';

/**
 * The completion sites of a repository's tasks, from the prepared checkout (the base commit's files):
 * the checkout as evaluation's specs see it (evaluate/evaluation-spec.ts).
 */
export class SiteFinder implements EvaluationCheckout {
  private readonly found = new Map<string, CompletionSite | Error>();

  constructor(
    private readonly prepared: PreparedRepository,
    private readonly parser: Awaited<ReturnType<typeof loadPythonParser>>,
  ) {}

  get baseCommit(): string {
    return this.prepared.checkout.baseCommit;
  }

  get environmentKey(): string {
    return this.prepared.environment.key;
  }

  /** The site; thrown when it cannot be found (the same error each time: a task's file is read once). */
  completionSite(task: SpecTask): CompletionSite {
    let site = this.found.get(task.instanceId);
    if (site === undefined) {
      try {
        const file = /^--- a\/(.+)$/m.exec(task.preCode)?.[1] ?? '';
        const text = readFileSync(join(this.prepared.checkout.path, file), 'utf8');
        site = completionSite(this.parser, text, task.preCode);
      } catch (error) {
        site = error instanceof Error ? error : new Error(String(error));
      }
      this.found.set(task.instanceId, site);
    }
    if (site instanceof Error) throw site;
    return site;
  }
}
