import type { Catalog, InstanceIdRename, StoredTask, StoredValidation } from '@repocod/catalog';
import { CONTEXT_LEVELS, LEVEL_MODE_SUMMARIES, RepocodError } from '@repocod/core';
import { readReferenceTable } from '@repocod/fidelity';
import type { ReleaseRow, VersionFile } from '@repocod/publish';
import type { ReleaseFreshness } from './release-freshness.js';
import type { SelectionSpec } from '@repocod/tasks';
import { qualityRulesInForce, REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { qualityRemovalLines, qualityRemovals } from '../steps/quality-removals.js';
import { fidelitySection, measured, REFERENCE_FOLDER_PATH, TITLES } from '../reports/fidelity-report.js';
import type { ReleasedReferenceSummary, ReleaseReferenceOptions } from '../reference/reference-of-release.js';
import { referenceOfRelease, referenceReleaseParts } from '../reference/reference-of-release.js';
import { ENVIRONMENTS_RECORD, releaseEnvironments } from './release-environments.js';
import { selectionLevelMode, tasksOfSelection } from '../steps/selection-tasks.js';
import { storedTaskBodyDates, storedTaskDatings } from '../candidates/body-dates.js';
import { freshnessSection } from './freshness-section.js';
import { freshnessRecord, releaseFreshness } from './release-freshness.js';
import { TASK_RECORD, taskRecords } from './task-record.js';
import { checkOneEraPerRepository, releasedTask } from './released-task.js';
import { releaseInstanceId } from '@repocod/runner';
import { readCurrentValidations, taskHash } from '@repocod/validate';
import type { ValidationCounts } from '@repocod/validate';
import { countValidations, firstProblem } from '@repocod/validate';

/** A selected task that is not released: it failed a check (or could not be validated). */
export interface LeftOutTask {
  readonly instanceId: string;
  readonly status: StoredValidation['status'];
  readonly check: string;
  readonly detail: string;
}

/** What a version of a release holds, and why: the tasks, their validations, and the card. */
export interface ReleaseContent {
  readonly selectionId: string;
  readonly rows: readonly ReleaseRow[];
  readonly body: string;
  /**
   * `<version>/validation.jsonl` (every selected task's checks and provenance), `tasks.jsonl` (what the
   * seed's schema has no column for: level, lengths, complexity) and `environments.txt`.
   */
  readonly extras: readonly VersionFile[];
  readonly selected: number;
  readonly leftOut: readonly LeftOutTask[];
  /** Tasks that failed a check and are released because the curator kept them. */
  readonly kept: readonly LeftOutTask[];
  readonly counts: ValidationCounts;
  /** The reference the selection was made over, and what became of its rows; null for none. */
  readonly reference: ReleasedReferenceSummary | null;
  /** The cutoff the version was built with, and its repositories' base commits and body dates; null without one. */
  readonly freshness: ReleaseFreshness | null;
}

export interface ReleaseContentOptions {
  readonly version: string;
  readonly selectionId?: string;
  /** Instance ids of tasks that failed validation and are released all the same. */
  readonly keep?: readonly string[];
  /** The runner's environments folder: when given, the release lists their packages (environments.txt). */
  readonly envsRoot?: string;
  /**
   * How to resolve the reference a selection was made over: its release then says what became of each of
   * the reference's rows (the card's "Rebuilt from a reference", `reference.jsonl`).
   */
  readonly reference?: ReleaseReferenceOptions;
  /**
   * The cutoff the tasks were made with (`--changed-since`, UTC): every released task's body must have changed
   * after it, and the version says so (`freshness.json`, the card's "Freshness").
   */
  readonly changedSince?: string;
}

/**
 * The tasks of a selection as release rows: each task's current validation (the newest one of its
 * present content) decides whether it is released and gives its FAIL_TO_PASS (flaky tests removed).
 * A task never validated stops the release: a release holds only tasks the shared runner has seen.
 */
export async function releaseContent(catalog: Catalog, options: ReleaseContentOptions): Promise<ReleaseContent> {
  const selection = await tasksOfSelection(catalog, options.selectionId);
  const inCatalog = selection.tasks;
  checkOneEraPerRepository(inCatalog, `selection ${selection.selectionId}`, () => 'select again with one of them');
  const reference = await referenceOfRelease(catalog, selection, options.reference);
  // --keep takes an id as the release names it or as the catalog does (with an era's @COMMIT12).
  const keep = new Set((options.keep ?? []).map(releaseInstanceId));
  const unknownKeeps = [...keep].filter((id) => !inCatalog.some((task) => releaseInstanceId(task.instanceId) === id));
  if (unknownKeeps.length > 0)
    throw new RepocodError(
      'usage',
      `--keep ${unknownKeeps.join(', ')}: not a task of selection ${selection.selectionId}`,
    );

  const found = await readCurrentValidations(
    catalog,
    inCatalog.map((task) => ({ instanceId: task.instanceId, hash: taskHash(task) })),
  );
  // Found by the catalog's names; from here on each task is named as the release names it (released-task.ts).
  const current = new Map([...found].map(([instanceId, row]) => [releaseInstanceId(instanceId), row]));
  const tasks = inCatalog.map(releasedTask);
  const unvalidated = tasks.filter((task) => !current.has(task.instanceId));
  if (unvalidated.length > 0) {
    const repositories = [...new Set(unvalidated.map((task) => task.repository))].sort();
    throw new RepocodError(
      'usage',
      `${unvalidated.length} of the ${tasks.length} task(s) of selection ${selection.selectionId} have not been ` +
        `validated as they are now (${unvalidated
          .slice(0, 3)
          .map((task) => task.instanceId)
          .join(', ')}${unvalidated.length > 3 ? ', …' : ''}); run \`repocod validate${
          options.selectionId === undefined ? '' : ` --selection ${selection.selectionId}`
        }\` first (repositories: ${repositories.join(', ')})`,
    );
  }

  const leftOut: LeftOutTask[] = [];
  const kept: LeftOutTask[] = [];
  const released: { task: StoredTask; validation: StoredValidation }[] = [];
  for (const task of tasks) {
    const validation = current.get(task.instanceId) as StoredValidation;
    if (validation.status === 'passed') {
      released.push({ task, validation });
      continue;
    }
    const problem = firstProblem(validation);
    const entry = {
      instanceId: task.instanceId,
      status: validation.status,
      check: problem?.check ?? 'unknown',
      detail: problem?.detail ?? '',
    };
    if (keep.has(task.instanceId)) {
      kept.push(entry);
      released.push({ task, validation });
    } else leftOut.push(entry);
  }
  if (released.length === 0 && leftOut.length === 0) {
    // Nothing was picked: the cause is upstream (no candidate, none mined with tests), not validation.
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} holds no task: nothing to release (extract, mine and tasks say why: ` +
        'no candidate, or none with relevant tests; `repocod sql "select count(*) from tasks"` counts the tasks)',
    );
  }
  if (released.length === 0) {
    throw new RepocodError(
      'usage',
      `no task of selection ${selection.selectionId} passed validation (${leftOut.length} failed); nothing to ` +
        'release (`repocod validate` lists why; --keep ID releases a task all the same)',
    );
  }
  const releasedTasks = released.map(({ task }) => task);
  const bodyDates = await storedTaskBodyDates(catalog, releasedTasks);
  const freshness =
    options.changedSince === undefined
      ? null
      : releaseFreshness(
          options.changedSince,
          releasedTasks,
          bodyDates,
          await storedTaskDatings(catalog, releasedTasks),
        );
  const rows: ReleaseRow[] = released.map(({ task, validation }) => ({
    instance_id: task.instanceId,
    version: options.version,
    gold_patches: { code: task.goldCode, test: task.goldTest },
    pre_patches: { code: task.preCode, test: task.preTest },
    repo: task.repo,
    base_commit: task.baseCommit,
    base_commit_timestamp: task.baseCommitTimestamp,
    problem_statement: { code: task.problemCode, test: task.problemTest },
    environment_setup_commit: task.baseCommit,
    // A kept task whose every test was found flaky keeps its mined tests: an empty list tests nothing.
    FAIL_TO_PASS: validation.failToPass.length > 0 ? validation.failToPass : task.failToPass,
  }));
  const counts = countValidations([...current.values()]);
  const releasedIds = new Set(released.map(({ task }) => task.instanceId));
  const referenceParts = reference === null ? null : referenceReleaseParts(reference, releasedIds);
  const renames = (await catalog.instanceIdRenames()).filter((rename) => releasedIds.has(rename.newId));
  const keptIds = new Set(kept.map((task) => task.instanceId));
  const record = tasks.map((task) =>
    validationRecord(
      task,
      current.get(task.instanceId) as StoredValidation,
      releasedIds.has(task.instanceId),
      keptIds.has(task.instanceId),
    ),
  );
  return {
    selectionId: selection.selectionId,
    rows,
    body: cardBody(
      options.version,
      selection.spec,
      released,
      { counts, selected: tasks.length, leftOut, kept },
      fidelityOfRelease(
        selection.spec,
        released.map(({ task }) => task),
      ),
      referenceParts?.section ?? null,
      renames,
      freshness === null ? null : freshnessSection(options.version, freshness),
      await qualityParagraph(catalog, selection.spec),
    ),
    extras: [
      { name: VALIDATION_RECORD, content: record.map((line) => `${JSON.stringify(line)}\n`).join('') },
      { name: TASK_RECORD, content: taskRecords(releasedTasks, bodyDates) },
      ...(referenceParts === null ? [] : [referenceParts.record]),
      ...(freshness === null ? [] : [freshnessRecord(freshness)]),
      ...(options.envsRoot === undefined
        ? []
        : [
            {
              name: ENVIRONMENTS_RECORD,
              content: releaseEnvironments(
                released.map(({ validation }) => validation),
                options.envsRoot,
              ),
            },
          ]),
    ],
    selected: tasks.length,
    leftOut,
    kept,
    counts,
    reference: referenceParts?.summary ?? null,
    freshness,
  };
}

/** Beside each version's Parquet: one JSON line per selected task, released or not. */
export const VALIDATION_RECORD = 'validation.jsonl';

function validationRecord(
  task: StoredTask,
  validation: StoredValidation,
  released: boolean,
  kept: boolean,
): Record<string, unknown> {
  return {
    instance_id: task.instanceId,
    released,
    kept_by_curator: kept,
    status: validation.status,
    checks: validation.checks.map((check) => ({
      check: check.check,
      status: check.status,
      detail: check.detail,
      tests: check.tests,
      run_ids: check.runIds,
    })),
    fail_to_pass_mined: task.failToPass.length,
    fail_to_pass_validated: validation.failToPass.length,
    flaky_tests: validation.flakyTests,
    dropped_tests: validation.droppedTests,
    // REPOCOD's rule keeps them in FAIL_TO_PASS; incomplete when the run stopped at the first failure.
    passing_without_body: validation.passingWithoutBody,
    passing_without_body_complete: validation.withoutBodyComplete,
    gold_check_from: validation.goldFrom,
    gold_baseline_key: validation.goldBaselineKey,
    runs_with_gold: validation.repeat,
    tool_version: validation.toolVersion,
    python_version: validation.pythonVersion,
    packages_hash: validation.packagesHash,
    environment_key: validation.environmentKey,
    run_ids: validation.runIds,
    validated_at: validation.validatedAt.toISOString(),
  };
}

interface ValidationFacts {
  readonly counts: ValidationCounts;
  readonly selected: number;
  readonly leftOut: readonly LeftOutTask[];
  readonly kept: readonly LeftOutTask[];
}

/**
 * The released tasks beside REPOCOD's published figures (docs/fidelity.md): a selection with
 * REPOCOD-Lite's quotas beside REPOCOD-Lite, any other beside the full benchmark.
 */
export function fidelityOfRelease(spec: string, released: readonly StoredTask[]): string | null {
  const quotas = (JSON.parse(spec) as { quotas?: Record<string, number> }).quotas ?? {};
  const lite = CONTEXT_LEVELS.every((level) => quotas[level] === REPOCOD_LITE_SPEC.quotas[level]);
  // REPOCOD's first labelling is what its full table of that labelling (and REPOCOD-Lite) counts.
  const against = lite ? 'lite' : selectionLevelMode(spec) === 'repocod-v1' ? 'full-v1' : 'full-v4';
  // A release of repositories REPOCOD does not hold has nothing to be faithful to: its card says what it is.
  const theirs = new Set(Object.keys(readReferenceTable(REFERENCE_FOLDER_PATH, against).repositories));
  if (!released.some((task) => theirs.has(repositoryName(task.repository)))) return null;
  const title = `The ${released.length} released tasks against ${TITLES[against]}`;
  return fidelitySection(title, released.map(measured), against).markdown;
}

/**
 * The card's account of the spec's task-quality rules: each in force (REPOCOD's choice where the spec names none)
 * and what they removed from the pool, by rule. Nothing for a spec without rules, whose cards stay as they were.
 */
async function qualityParagraph(catalog: Catalog, specText: string): Promise<string[]> {
  const rules = (JSON.parse(specText) as SelectionSpec).quality;
  if (rules === undefined) return [];
  const removed = await qualityRemovals(catalog, rules);
  const lines = qualityRemovalLines(removed, 2);
  return [
    `Task-quality rules: ${qualityRulesInForce(rules)}. They removed ${removed.length} of the catalog's tasks`,
    `before ranking${lines.length === 0 ? '.' : ':'}`,
    ...lines.map((line) => `- ${line}`),
    '',
  ];
}

/** A catalog name without its era (`flask@2ac89889f4cc` is flask). */
function repositoryName(catalogName: string): string {
  return catalogName.split('@')[0] ?? catalogName;
}

/** The card's account of a release none of whose repositories REPOCOD holds, in place of its fidelity section. */
function ownBenchmarkSection(tasks: readonly StoredTask[]): string[] {
  const repos = [...new Set(tasks.map((task) => task.repo))].sort();
  return [
    '## What this is',
    '',
    `A repository-level code-generation benchmark of ${tasks.length} tasks from ${repos.length} repositor` +
      `${repos.length === 1 ? 'y' : 'ies'} (${repos.join(', ')}), built with repocod-kit as REPOCOD was built:`,
    "whole function bodies to write back, graded by the repository's own tests. REPOCOD holds none of these",
    'repositories, so its published figures describe other code and no comparison with them is made.',
    '',
  ];
}

/** The card for people: what the dataset is, how it was built and checked, its statistics, its fidelity to REPOCOD. */
export function cardBody(
  version: string,
  spec: string,
  released: readonly { task: StoredTask; validation: StoredValidation }[],
  facts: ValidationFacts,
  /** The fidelity section's text; null for a release of repositories REPOCOD does not hold. */
  fidelity: string | null,
  referenceSection: string | null = null,
  renames: readonly InstanceIdRename[] = [],
  freshness: string | null = null,
  quality: readonly string[] = [],
): string {
  const tasks = released.map(({ task }) => task);
  const mode = selectionLevelMode(spec) ?? 'deps';
  const testsOf = new Map(
    released.map(({ task, validation }) => [
      task.instanceId,
      validation.failToPass.length > 0 ? validation.failToPass.length : task.failToPass.length,
    ]),
  );
  const mean = (values: readonly number[]): string =>
    values.length === 0 ? '–' : (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(1);
  const statsRow = (label: string, group: readonly StoredTask[]): string =>
    `| ${label} | ${group.length} | ${mean(group.map((task) => task.promptLines))} | ` +
    `${mean(group.map((task) => task.solutionLines))} | ${mean(group.map((task) => task.solutionTokens))} | ` +
    `${mean(group.map((task) => task.complexity))} | ${mean(group.map((task) => testsOf.get(task.instanceId) ?? 0))} |`;
  const header = [
    '| | tasks | prompt lines | solution lines | solution tokens | complexity | tests per task |',
    '|---|---|---|---|---|---|---|',
  ];
  const repositories = [...new Set(tasks.map((task) => task.repo))].sort();
  const { counts } = facts;
  const checkRow = (label: string, check: keyof ValidationCounts['byCheck']): string =>
    `| ${label} | ${counts.byCheck[check].passed} | ${counts.byCheck[check].failed} | ` +
    `${counts.byCheck[check]['infra-error']} |`;
  const environments = [...new Map(released.map(({ task, validation }) => [task.repo, validation])).entries()].sort(
    ([a], [b]) => (a < b ? -1 : 1),
  );
  const k = counts.repeats.join(' or ');
  return [
    `# REPOCOD-style repository-level code generation, version ${version}`,
    '',
    'Each task is a function of a real Python repository whose body was removed: the model gets the',
    'repository at the base commit with `pre_patches` applied (signature and docstring kept, the',
    "function's relevant tests removed) and must write the body; `gold_patches` restore both. A task",
    'passes when every test of `evaluation.FAIL_TO_PASS` passes. The columns follow REPOCOD_Lite_Unified.',
    '',
    '## How it was built',
    '',
    'Built with repocod-kit: candidate functions (library code, docstring over 10 lines), relevant tests',
    'found by mutation (the tests that pass at the base commit in every baseline run and fail when the',
    `body is replaced by an assertion failure), context levels labelled under \`${mode}\``,
    `(${LEVEL_MODE_SUMMARIES[mode]}), and this selection spec (quotas per level under that labelling, score`,
    'and filter as DuckDB SQL over the tasks):',
    '',
    '```json',
    spec,
    '```',
    '',
    ...quality,
    ...(freshness === null ? [] : [freshness]),
    '## Statistics',
    '',
    ...header,
    ...CONTEXT_LEVELS.map((level) =>
      statsRow(
        level,
        tasks.filter((task) => task.level === level),
      ),
    ),
    statsRow('all', tasks),
    '',
    ...header,
    ...repositories.map((repo) =>
      statsRow(
        repo,
        tasks.filter((task) => task.repo === repo),
      ),
    ),
    '',
    ...(referenceSection === null ? [] : [referenceSection]),
    ...(fidelity === null
      ? ownBenchmarkSection(tasks)
      : [
          '## Fidelity to REPOCOD',
          '',
          'Generated by `repocod report` (docs/fidelity.md in repocod-kit).',
          '',
          fidelity,
        ]),
    '## Validation',
    '',
    "Every selected task was run with repocod-kit's shared runner (one environment per repository, each",
    'job in its own git worktree, no network, `TZ=UTC`, `PYTHONHASHSEED=0`):',
    '',
    '1. the starting state (base commit + both `pre_patches`) collects under pytest without error;',
    '2. with the tests restored (`gold_patches.test`), every FAIL_TO_PASS test fails without the body;',
    `3. with both \`gold_patches\`, every FAIL_TO_PASS test passes, in each of ${k} runs, and the whole`,
    "   FAIL_TO_PASS fits the limit of one run on the gold state (the repository's timeout, REPOCOD's 600 s).",
    '',
    '| check | passed | failed | infrastructure errors |',
    '|---|---|---|---|',
    checkRow('1. the starting state collects', 'collects'),
    checkRow('2. the tests fail without the body', 'fails-without-body'),
    checkRow(`3. the tests pass with the gold patches (${k} runs)`, 'passes-with-gold'),
    '',
    `Of ${facts.selected} selected tasks, ${counts.byStatus.passed} passed every check; released: ${tasks.length}` +
      (facts.kept.length > 0 ? ` (${facts.kept.length} kept by the curator despite a failed check)` : '') +
      `; left out: ${facts.leftOut.length}. ` +
      `Tests whose outcome flipped across the runs were removed from FAIL_TO_PASS: ${counts.flakyTests} in ` +
      `${counts.tasksWithFlakyTests} task(s)` +
      (counts.droppedTests > 0
        ? `; tests that pass without the body were removed from FAIL_TO_PASS: ${counts.droppedTests}.`
        : '.'),
    '',
    ...(facts.leftOut.length + facts.kept.length === 0
      ? []
      : [
          '| task | check | why | released |',
          '|---|---|---|---|',
          ...[
            ...facts.leftOut.map((task) => ({ ...task, released: 'no' })),
            ...facts.kept.map((task) => ({ ...task, released: 'kept' })),
          ].map(
            (task) =>
              `| ${task.instanceId} | ${task.check} | ${task.detail.replaceAll('|', '\\|')} | ${task.released} |`,
          ),
          '',
        ]),
    `Provenance: ${counts.toolVersions.join(', ')}; ${environments
      .map(
        ([repo, validation]) =>
          `${repo}: Python ` +
          `${validation.pythonVersion}, installed packages sha256 \`${validation.packagesHash.slice(0, 16)}\``,
      )
      .join('; ')}.`,
    `Each task's checks, tests removed and run ids are in \`${version}/${VALIDATION_RECORD}\`.`,
    '',
    ...renamedIdsSection(renames),
  ].join('\n');
}

/**
 * The released tasks whose instance id a catalog migration renamed, old → new, so that results keyed by
 * an earlier release's ids can be matched.
 */
function renamedIdsSection(renames: readonly InstanceIdRename[]): string[] {
  if (renames.length === 0) return [];
  const reasons = [...new Set(renames.map((rename) => rename.reason))].join('; ');
  return [
    '## Renamed instance ids',
    '',
    `${renames.length} released task(s) have an id other than in earlier releases of repocod-kit (${reasons}):`,
    '',
    '| earlier id | id in this release |',
    '|---|---|',
    ...renames.map((rename) => `| ${rename.oldId} | ${rename.newId} |`),
    '',
  ];
}
