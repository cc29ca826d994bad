import type { Catalog } from '@repocod/catalog';
import type { QualityFinding, QualityRules } from '@repocod/tasks';
import { qualityFindings } from '@repocod/tasks';
import { readCurrentValidations, taskHashOf } from '@repocod/validate';

/** The rules in force, as select and the card print them. */
export { qualityFindings, qualityRulesInForce } from '@repocod/tasks';

/** A task a quality rule keeps out of the selection, with the rules it breaks. */
export interface QualityRemoval {
  readonly instanceId: string;
  readonly repository: string;
  readonly findings: readonly QualityFinding[];
}

/**
 * The tasks the spec's quality rules keep out (quality-rules.ts), read from the catalog: each task's solution lines
 * and FAIL_TO_PASS, its repository's suite size (mining's baseline) and, for a validated task, whether its current
 * validation's collect check found the pre state collecting.
 */
export async function qualityRemovals(
  catalog: Pick<Catalog, 'taskSummaries' | 'suiteSize' | 'validations'>,
  rules: QualityRules,
): Promise<QualityRemoval[]> {
  const tasks = await catalog.taskSummaries();
  const suites = new Map<string, number | null>();
  for (const repository of new Set(tasks.map((task) => task.repository))) {
    suites.set(repository, await catalog.suiteSize(repository));
  }
  const collects = rules.preStateMustCollect === true ? await preStateCollects(catalog, tasks) : new Map();
  return tasks.flatMap((task) => {
    const findings = qualityFindings(rules, {
      solutionLines: task.solutionLines,
      failToPass: task.failToPass.length,
      suiteSize: suites.get(task.repository) ?? null,
      preStateCollects: collects.get(task.instanceId) ?? null,
    });
    return findings.length === 0 ? [] : [{ instanceId: task.instanceId, repository: task.repository, findings }];
  });
}

/** Whether each validated task's pre state collects without the body, by its current validation (same task hash). */
async function preStateCollects(
  catalog: Pick<Catalog, 'validations'>,
  tasks: Awaited<ReturnType<Catalog['taskSummaries']>>,
): Promise<Map<string, boolean>> {
  const current = await readCurrentValidations(
    catalog,
    tasks.map((task) => ({ instanceId: task.instanceId, hash: taskHashOf(task) })),
  );
  const collects = new Map<string, boolean>();
  for (const [instanceId, validation] of current) {
    const check = validation.checks.find((found) => found.check === 'collects');
    if (check !== undefined) collects.set(instanceId, check.bodyNeededAtCollection !== true);
  }
  return collects;
}

/**
 * What the rules removed, one line per rule that removed anything (`minSolutionLines 3: 12 task(s) removed, e.g.
 * …`), in the order of the rules; a task breaking two rules counts under each.
 */
export function qualityRemovalLines(removed: readonly QualityRemoval[], examples = 3): string[] {
  const byRule = new Map<string, { ids: string[]; detail: string }>();
  for (const removal of removed) {
    for (const finding of removal.findings) {
      const entry = byRule.get(finding.rule) ?? { ids: [], detail: finding.detail };
      entry.ids.push(removal.instanceId);
      byRule.set(finding.rule, entry);
    }
  }
  return [...byRule].map(([rule, { ids, detail }]) => {
    const shown = ids.slice(0, examples).join(', ');
    const more = ids.length > examples ? ` and ${ids.length - examples} more` : '';
    return `${rule}: ${ids.length} task(s) removed (e.g. ${shown}${more}; first: ${detail})`;
  });
}
