import { join } from 'node:path';
import type { Catalog, StoredTask } from '@repocod/catalog';
import { CONTEXT_LEVELS, RepocodError } from '@repocod/core';
import type { ReleaseRow, WrittenRelease } from '@repocod/publish';
import { writeRelease } from '@repocod/publish';

export interface PublishOptions {
  readonly version: string;
  /** The release folder (default out/release under the project root). */
  readonly out: string;
  /** Which selection to release (default: the latest). */
  readonly selectionId?: string;
}

export type PublishSummary = WrittenRelease & { readonly selectionId: string; readonly tasks: number };

/**
 * `repocod publish`: the tasks of a selection as a new version of the release folder: Parquet in the
 * seed's schema, and a dataset card whose header lists every version and whose body says what the
 * dataset is, how it was chosen, and its statistics per repository and per level.
 */
export async function publishStage(catalog: Catalog, options: PublishOptions): Promise<PublishSummary> {
  const selection = await catalog.selection(options.selectionId);
  if (selection === null) {
    throw new RepocodError('usage', options.selectionId === undefined ? 'no selection in the catalog yet; run `repocod select` first' : `no selection ${options.selectionId} in the catalog; \`repocod sql "select * from selections"\` lists them`);
  }
  const byId = new Map((await catalog.tasks()).map((task) => [task.instanceId, task]));
  const tasks = selection.picks.flatMap((pick) => byId.get(pick.instanceId) ?? []).sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  if (tasks.length !== selection.picks.length) {
    throw new RepocodError('usage', `selection ${selection.selectionId} names ${selection.picks.length - tasks.length} task(s) no longer in the catalog (tasks were rebuilt); run \`repocod select\` again`);
  }
  const rows: ReleaseRow[] = tasks.map((task) => ({
    instance_id: task.instanceId,
    version: options.version,
    gold_patches: { code: task.goldCode, test: task.goldTest },
    pre_patches: { code: task.preCode, test: task.preTest },
    repo: task.repo,
    base_commit: task.baseCommit,
    base_commit_timestamp: task.baseCommitTimestamp,
    problem_statement: { code: task.problemCode, test: task.problemTest },
    environment_setup_commit: task.baseCommit,
    FAIL_TO_PASS: task.failToPass,
  }));
  const written = writeRelease(options.out, options.version, rows, cardBody(options.version, selection.spec, tasks));
  return { ...written, selectionId: selection.selectionId, tasks: tasks.length };
}

/** The card for people: what the dataset is, how it was built, its statistics. */
export function cardBody(version: string, spec: string, tasks: readonly StoredTask[]): string {
  const mean = (values: readonly number[]): string => (values.length === 0 ? '–' : (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(1));
  const statsRow = (label: string, group: readonly StoredTask[]): string =>
    `| ${label} | ${group.length} | ${mean(group.map((task) => task.promptLines))} | ${mean(group.map((task) => task.solutionLines))} | ${mean(group.map((task) => task.solutionTokens))} | ${mean(group.map((task) => task.complexity))} | ${mean(group.map((task) => task.failToPass.length))} |`;
  const header = ['| | tasks | prompt lines | solution lines | solution tokens | complexity | tests per task |', '|---|---|---|---|---|---|---|'];
  const repositories = [...new Set(tasks.map((task) => task.repo))].sort();
  return [
    `# REPOCOD-style repository-level code generation, version ${version}`,
    '',
    'Each task is a function of a real Python repository whose body was removed: the model gets the',
    'repository at the base commit with `pre_patches` applied (signature and docstring kept, the',
    "function's relevant tests removed) and must write the body; `gold_patches` restore both. A task",
    "passes when every test of `evaluation.FAIL_TO_PASS` passes. The columns follow REPOCOD_Lite_Unified.",
    '',
    '## How it was built',
    '',
    'Built with repocod-kit: candidate functions (library code, docstring over 10 lines), relevant tests',
    'found by mutation (the tests that pass at the base commit in every baseline run and fail when the',
    'body is replaced by an assertion failure), context level by static resolution, and this selection',
    'spec (quotas per level, score and filter as DuckDB SQL over the tasks):',
    '',
    '```json',
    spec,
    '```',
    '',
    '## Statistics',
    '',
    ...header,
    ...CONTEXT_LEVELS.map((level) => statsRow(level, tasks.filter((task) => task.level === level))),
    statsRow('all', tasks),
    '',
    ...header,
    ...repositories.map((repo) => statsRow(repo, tasks.filter((task) => task.repo === repo))),
    '',
    '## Validation',
    '',
    'Not yet validated with the shared runner in this version: every task passed its patch checks',
    '(base + pre + gold gives back the base bytes, the patches apply, the pre state collects).',
    '',
  ].join('\n');
}

export const DEFAULT_RELEASE_FOLDER = join('out', 'release');
