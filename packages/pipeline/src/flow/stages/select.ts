import { RepocodError } from '@repocod/core';
import { listRepositories } from '../../steps/find-repository.js';
import { referenceTaskIds } from '../../reference/reference-functions.js';
import { qualityRemovalLines } from '../../steps/quality-removals.js';
import { selectStep } from '../../steps/select.js';
import { flowSelectionSpec } from '../flow-selection-spec.js';
import type { CollectiveStage, StageContext, StageDefinition } from '../stage-contract.js';

/**
 * The Lite subset over every repository's tasks (over a reference's, when the spec names one), stored
 * with its spec; later stages take its id.
 */
const SELECT_RUN: CollectiveStage = {
  stage: 'select',
  scope: 'all',
  async run(context, progress) {
    const { catalog, settings, state } = context;
    const { reference } = settings.spec;
    const spec = await flowSelectionSpec(context);
    const pool =
      reference === undefined
        ? undefined
        : await referenceTaskIds(catalog, reference, {
            repositories: listRepositories(settings),
            projectRoot: settings.projectRoot,
          });
    for (const row of pool?.withoutTask ?? [])
      progress.problem(
        `reference ${reference} row ${row.row.index} (${row.row.functionName ?? row.row.instanceId ?? '?'}): no task ` +
          `(no relevant tests found here)`,
      );
    const value = await selectStep(catalog, spec, 'the flow', {
      ...(pool === undefined ? {} : { referenceTasks: pool.instanceIds }),
    });
    state.selectionId = value.selectionId;
    progress.step(value.picks.length, value.picks.length, value.selectionId);
    await checkPreparable(context, value.picks);
    for (const short of value.short)
      progress.problem(
        `${short.level}: ${short.available} task(s), fewer than its quota of ${short.quota}; all of them taken`,
      );
    const levels = value.levels.map((level) => `${level.level} ${level.picked}`).join(', ');
    const passedOver =
      value.passedOver.length === 0 ? '' : `; ${value.passedOver.length} passed over, validation failed`;
    for (const line of qualityRemovalLines(value.qualityRemoved)) progress.problem(`quality rule ${line}`);
    const mode = `levels by ${value.spec.levels}${
      reference === undefined ? '' : `; reference ${reference}${value.spec.keepAll === true ? ', all kept' : ''}`
    }`;
    return `selection ${value.selectionId}: ${value.picks.length} tasks (${levels})${passedOver}; ${mode}`;
  },
};

/**
 * Every repository the picks hold prepared now, before validation starts: a selection pools the catalog's tasks,
 * including those of repositories (eras) this flow was not given, and one that cannot be checked out (no clone here,
 * a url out of reach) would otherwise fail its validation after the others' hours. A usage error names each such
 * repository with git's reason and the options that give it.
 */
async function checkPreparable(
  context: StageContext,
  picks: readonly { readonly repository: string }[],
): Promise<void> {
  const names = [...new Set(picks.map((pick) => pick.repository))].sort();
  const failures: string[] = [];
  for (const name of names) {
    try {
      await context.repositories.ofCatalogName(name);
    } catch (error) {
      failures.push(`${name} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (failures.length === 0) return;
  throw new RepocodError(
    'usage',
    [
      `the selection holds tasks of ${failures.length} repository(ies) that cannot be prepared here:`,
      `${failures.join('; ')}; give each a local clone (--source NAME=PATH, and --repo NAME with --at NAME=REF for`,
      'an era), or select without them; nothing was validated',
    ].join(' '),
  );
}

export const SELECT: StageDefinition = {
  stage: 'select',
  title: 'Lite selection',
  rows: 'one',
  runner: () => SELECT_RUN,
  stored: (status) =>
    status.selection === null ? null : `selection ${status.selection.selectionId}, ${status.selection.tasks} tasks`,
};
