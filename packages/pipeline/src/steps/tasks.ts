import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogFunction, TaskRow } from '@repocod/catalog';
import type { CandidateModeName, LevelMode, TaskChecks } from '@repocod/core';
import { functionKey } from '../candidates/mining-outcomes.js';
import { checkOneCommitPerCatalog } from './one-commit-per-catalog.js';
import { changedSinceCutoff } from '../candidates/body-dates.js';
import type { ReleaseDatings } from '../candidates/dated-against.js';
import { candidatesUnderMode } from '../candidates/candidate-selection.js';
import { referenceFunctions } from '../reference/reference-functions.js';
import { RepocodError, tailLines } from '@repocod/core';
import type { MiningMode, MiningTracebacks } from '@repocod/mining';
import { listPythonFiles, loadPythonParser } from '@repocod/python';
import type { ExecutorFactory, JobResult, PreparedRepository } from '@repocod/runner';
import { applyPatches, catalogName, git, localExecutor, resetWorktree } from '@repocod/runner';
import type { StatementTemplates, TestFileModel } from '@repocod/tasks';
import {
  buildRepositoryIndex,
  codePatches,
  DEFAULT_TEMPLATES,
  indexedBaseResolver,
  renderTemplate,
  testFileModel,
  testPatches,
} from '@repocod/tasks';
import type { FunctionLevels } from '../candidates/classify-functions.js';
import { classifyFunctions, levelModeOf } from '../candidates/classify-functions.js';
import { JobPool } from '@repocod/runner';
import { CatalogJobStore } from '../jobs/catalog-job-store.js';
import { miningKeyOf } from './mining-key.js';
import { preparedInstanceIds, taskRepoName } from '../records/task-identity.js';
import { preStateCollectJob, testsRemovedCollectJob } from '@repocod/validate';
import { collectsCheck, needsTestsRemovedCollect } from '@repocod/validate';

export interface TasksStepOptions {
  /** The project the reference's rows are read in (with `reference`). */
  readonly projectRoot: string;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  /** Which mining results to take (default fast); repeat and tracebacks name the mining key. */
  readonly mode?: MiningMode;
  readonly repeat?: number;
  readonly tracebacks?: MiningTracebacks;
  /**
   * The mining key mine returned (a flow hands it over); without one, the key of these settings
   * (`repocod tasks` on its own), which is the key mine used with the same settings.
   */
  readonly miningKey?: string;
  readonly templates?: StatementTemplates;
  /**
   * Which candidates become tasks (see CANDIDATE_MODES); default `docstring`, every mined one. Mining
   * under one mode answers for every narrower mode, so a mode can be chosen again without mining.
   */
  readonly candidates?: CandidateModeName;
  /**
   * A repository whose mining found no function with relevant tests gets no tasks (its earlier ones are
   * removed) instead of an error. A flow sets it: Lite-first mining may mine none of a repository's
   * candidates (sphinx, none of whose 85 ranks high enough in the eleven), and that is an answer.
   */
  readonly allowNoTasks?: boolean;
  /**
   * The context-level mode the tasks' `level` is under (`--levels`); default the manifest's `levels`,
   * else `deps`. Every mode's label is stored either way, so `select --levels` can choose another.
   */
  readonly levels?: LevelMode;
  /**
   * A reference's name (`repocod reference`): the tasks are exactly the mined functions its rows of
   * this repository resolve to, candidates of ours or not (the candidate mode does not apply).
   */
  readonly reference?: string;
  /** Only the functions whose body changed after this cutoff become tasks (see MiningSettings.changedSince). */
  readonly changedSince?: string;
  /** The repositories dated by release diff (see MiningSettings.datedAgainst). */
  readonly datedAgainst?: ReleaseDatings;
  readonly onEvent?: (event: TasksEvent) => void;
}

export type TasksEvent =
  | { readonly kind: 'tasks-built'; readonly tasks: number }
  | {
      readonly kind: 'task-checked';
      readonly instanceId: string;
      readonly passed: boolean;
      readonly done: number;
      readonly total: number;
    };

// The checks' shape is core's: the catalog stores it (see collectsCheck for `collects`).
export type { TaskChecks } from '@repocod/core';

export interface TasksSummary {
  readonly repository: string;
  readonly tasks: readonly TaskRow[];
  /** The mode `byLevel` and the tasks' `level` are under. */
  readonly levelMode: LevelMode;
  readonly byLevel: Readonly<Record<string, number>>;
  readonly failedChecks: readonly { readonly instanceId: string; readonly checks: TaskChecks }[];
  /** Tasks whose pre state does not collect because the tests' modules need the body (their checks pass). */
  readonly bodyNeededAtCollection: readonly string[];
  readonly durationSeconds: number;
}

/**
 * Every mined function of a prepared repository with relevant tests becomes a task: its instance id, its
 * context level and the dependencies behind it, the problem statements, the pre/gold patches of code
 * and tests, and the checks of those patches, stored in the catalog (replacing the repository's tasks).
 */
export async function tasksStep(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: TasksStepOptions,
): Promise<TasksSummary> {
  const started = performance.now();
  const name = catalogName(prepared.entry);
  await checkOneCommitPerCatalog(catalog, name, prepared.checkout.baseCommit);
  const miningKey = options.miningKey ?? miningKeyOf(prepared, options.repeat, options.tracebacks);
  const mined = (await catalog.relevantTests(name, { miningKey, mode: options.mode ?? 'fast' })).filter(
    (row) => row.status === 'tests',
  );
  if (mined.length === 0 && options.allowNoTasks !== true) {
    throw new RepocodError(
      'usage',
      `${name}: no mined function with relevant tests at ${prepared.checkout.baseCommit.slice(0, 12)}; run \`repocod ` +
        `mine ${name}\` first`,
    );
  }
  const functions = new Map((await catalog.functions(name)).map((fn) => [fn.functionId, fn]));
  const root = prepared.checkout.path;
  const reference =
    options.reference === undefined
      ? null
      : await referenceFunctions(catalog, options.reference, prepared.entry, options.projectRoot);
  // Only the mined functions are dated: blaming every function of a large repository takes minutes.
  const minedIds = new Set(mined.map((row) => row.functionId));
  const underMode =
    reference === null
      ? await candidatesUnderMode([...functions.values()], options.candidates, root)
      : [...functions.values()].filter((fn) => reference.keys.has(functionKey(fn)));
  const inMode = new Set(
    (options.changedSince === undefined
      ? underMode
      : await changedSinceCutoff(
          catalog,
          prepared,
          underMode.filter((fn) => minedIds.has(fn.functionId)),
          options.changedSince,
          options.datedAgainst,
        )
    ).map((fn) => fn.functionId),
  );
  const chosen = mined.flatMap((row) => {
    const fn = functions.get(row.functionId);
    return fn === undefined || !inMode.has(fn.functionId) ? [] : [{ fn, tests: row.tests }];
  });
  const texts = new Map(listPythonFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const parser = await loadPythonParser();
  const index = buildRepositoryIndex(parser, texts);
  const levels = classifyFunctions(
    index,
    chosen.map(({ fn }) => fn),
  );
  const levelMode = levelModeOf(prepared.entry, options.levels);
  const resolveBase = indexedBaseResolver(index);
  // Parsed when first asked: the tests' own files, and the files their inherited tests come from.
  const parsedTests = new Map<string, TestFileModel | undefined>();
  const testModels = {
    get(file: string): TestFileModel | undefined {
      if (!parsedTests.has(file)) {
        const text = texts.get(file);
        parsedTests.set(file, text === undefined ? undefined : testFileModel(parser, file, text));
      }
      return parsedTests.get(file);
    },
  };
  const candidates = [...functions.values()].filter((fn) => fn.isCandidate);
  const ids = preparedInstanceIds(prepared, [...candidates, ...chosen.map(({ fn }) => fn)]);
  const templates = options.templates ?? DEFAULT_TEMPLATES;
  const drafts = chosen.map(({ fn, tests }) => {
    const instanceId = ids.get(fn.functionId) as string;
    const code = codePatches(fn, texts.get(fn.file) ?? '');
    const test = testPatches(testModels, tests, resolveBase, prepared.entry.packageRoot);
    const classification = levels.get(fn.functionId) as FunctionLevels;
    const fields = {
      repository: taskRepoName(prepared),
      file: fn.file,
      qualname: fn.qualname,
      prompt: fn.slices.prompt,
      level: classification.levels[levelMode].level,
      tests: tests.map((id) => `- ${id}`).join('\n'),
    };
    return { instanceId, fn, tests, code, test, classification, fields };
  });
  options.onEvent?.({ kind: 'tasks-built', tasks: drafts.length });
  const checks = await checkPatches(
    catalog,
    prepared,
    drafts.map((draft) => ({
      instanceId: draft.instanceId,
      preCode: draft.code.pre,
      preTest: draft.test.pre,
      gold: [draft.test.gold, draft.code.gold],
      failToPass: draft.tests,
      testsNotFound: draft.test.missing,
    })),
    options.executor ?? localExecutor,
    options.onEvent,
  );
  const tasks: TaskRow[] = drafts.map((draft) => {
    const check = checks.get(draft.instanceId) as TaskChecks;
    return {
      instanceId: draft.instanceId,
      repository: name,
      functionId: draft.fn.functionId,
      file: draft.fn.file,
      qualname: draft.fn.qualname,
      repo: taskRepoName(prepared),
      baseCommit: prepared.checkout.baseCommit,
      baseCommitTimestamp: prepared.checkout.commitTimestamp,
      prompt: draft.fn.slices.prompt,
      solution: draft.fn.slices.solution,
      promptLines: draft.fn.metrics.promptLines,
      solutionLines: draft.fn.metrics.solutionLines,
      promptTokens: draft.fn.metrics.promptTokens,
      solutionTokens: draft.fn.metrics.solutionTokens,
      complexity: draft.fn.metrics.cyclomatic,
      level: draft.classification.levels[levelMode].level,
      levelMode,
      levels: draft.classification.levels,
      dependencies: draft.classification.dependencies,
      failToPass: draft.tests,
      problemCode: renderTemplate(templates.code, draft.fields, 'the code problem statement template'),
      problemTest: renderTemplate(templates.test, draft.fields, 'the test problem statement template'),
      preCode: draft.code.pre,
      goldCode: draft.code.gold,
      preTest: draft.test.pre,
      goldTest: draft.test.gold,
      checks: check,
      checksPassed: checksPass(check),
    };
  });
  await catalog.replaceTasks(name, tasks);
  const byLevel: Record<string, number> = {};
  for (const task of tasks) byLevel[task.level] = (byLevel[task.level] ?? 0) + 1;
  return {
    repository: name,
    tasks,
    levelMode,
    byLevel,
    failedChecks: tasks
      .filter((task) => !task.checksPassed)
      .map((task) => ({ instanceId: task.instanceId, checks: checks.get(task.instanceId) as TaskChecks })),
    bodyNeededAtCollection: tasks
      .filter((task) => checks.get(task.instanceId)?.bodyNeededAtCollection === true)
      .map((task) => task.instanceId),
    durationSeconds: (performance.now() - started) / 1000,
  };
}

interface PatchCheck {
  readonly instanceId: string;
  readonly preCode: string;
  readonly preTest: string;
  readonly gold: readonly string[];
  readonly failToPass: readonly string[];
  readonly testsNotFound: readonly string[];
}

/**
 * The checks of every task's patches: in a worktree, pre then gold applied with git must leave no
 * difference from the base commit; then, on the runner's pool, pytest must collect the pre state
 * without error in the task's test files (a removed body or removed tests must not break an import),
 * unless the tests' modules need the body at collection time (collectsCheck).
 */
async function checkPatches(
  catalog: Catalog,
  prepared: PreparedRepository,
  tasks: readonly PatchCheck[],
  executor: ExecutorFactory,
  onEvent?: (event: TasksEvent) => void,
): Promise<Map<string, TaskChecks>> {
  const worktree = prepared.worktrees[0];
  if (worktree === undefined) throw new Error('the tasks stage needs a worktree');
  const roundTrips = new Map<string, { applies: boolean; roundTrip: boolean; message: string | null }>();
  for (const task of tasks) {
    const patches = [task.preCode, task.preTest, ...task.gold].filter((patch) => patch !== '');
    const applied = await applyPatches(worktree, patches);
    if (!applied.ok) {
      roundTrips.set(task.instanceId, { applies: false, roundTrip: false, message: applied.message });
      continue;
    }
    const status = await git(worktree.path, ['status', '--porcelain']);
    await resetWorktree(worktree);
    roundTrips.set(task.instanceId, {
      applies: true,
      roundTrip: status === '',
      message: status === '' ? null : `base + pre + gold differs from the base: ${status}`,
    });
  }
  const repository = catalogName(prepared.entry);
  const results = new Map<string, TaskChecks>();
  let done = 0;
  const decide = (task: PatchCheck, pre: JobResult, testsRemoved: JobResult | null): void => {
    const trip = roundTrips.get(task.instanceId) ?? { applies: false, roundTrip: false, message: 'not checked' };
    const collect = collectsCheck(pre, testsRemoved);
    const collects = collect.status === 'passed';
    const messages = [
      ...(trip.message === null ? [] : [trip.message]),
      ...(pre.patchError !== null ? [pre.patchError] : []),
      ...(collects ? [] : [`${collect.detail}:\n${tailLines(collect.log ?? '', 15, 'trimmed').join('\n')}`]),
      ...(task.testsNotFound.length > 0
        ? [`relevant tests not found in their files: ${task.testsNotFound.join(', ')}`]
        : []),
    ];
    const checks: TaskChecks = {
      roundTrip: trip.roundTrip,
      applies: trip.applies && pre.patchError === null,
      collects,
      bodyNeededAtCollection: collect.bodyNeededAtCollection,
      testsNotFound: task.testsNotFound,
      messages,
    };
    results.set(task.instanceId, checks);
    done++;
    onEvent?.({
      kind: 'task-checked',
      instanceId: task.instanceId,
      passed: checksPass(checks),
      done,
      total: tasks.length,
    });
  };
  // A job already in the catalog (the same patches on the same environment) is not run again: rebuilding the tasks of
  // an unchanged repository (a resumed flow) costs only the git round trips. Validation's collect check is this very
  // job, and reads it back.
  const pool = new JobPool(new CatalogJobStore(catalog, prepared), executor(prepared));
  const checked = tasks.map(async (task) => {
    const pre = await pool.submit(preStateCollectJob({ repository, ...task }));
    // A pre state that does not collect is asked again with the tests removed (is the failure the body's?).
    const testsRemoved = needsTestsRemovedCollect(pre)
      ? await pool.submit(testsRemovedCollectJob({ repository, ...task }))
      : null;
    decide(task, pre, testsRemoved);
  });
  pool.start();
  await Promise.all(checked);
  return results;
}

function checksPass(checks: TaskChecks): boolean {
  return checks.roundTrip && checks.applies && checks.collects && checks.testsNotFound.length === 0;
}

export type { CatalogFunction };
