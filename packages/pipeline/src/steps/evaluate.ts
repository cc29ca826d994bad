import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Catalog, StoredEvaluation } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type {
  EvaluationGrade,
  EvaluationSpec,
  Prediction,
  PredictionProblem,
  ReportTask,
  InsertionMode,
  SinceScope,
} from '@repocod/evaluate';
import {
  bindPredictions,
  gradeSpecRun,
  gradeWithoutRun,
  parsePredictions,
  predictionInstanceId,
  runScopeText,
  tasksSince,
} from '@repocod/evaluate';
import { loadPythonParser } from '@repocod/python';
import type { ReadRelease, ReleaseTask } from '@repocod/publish';
import { readRelease } from '@repocod/publish';
import type { ExecutorFactory, JobResult, ManifestEntry, PreparedRepository } from '@repocod/runner';
import { jobRunIds, localExecutor } from '@repocod/runner';
import { JobPool } from '@repocod/runner';
import { CatalogJobStore } from '../jobs/catalog-job-store.js';
import { evaluationReports } from '../reports/evaluation-reports.js';
import type { WrittenReport } from './evaluation-logs.js';
import { taskLogFolder, writeReportFiles, writeTaskLogs } from './evaluation-logs.js';
import type { PreparedRepositories } from './prepare.js';
import { SiteFinder } from './site-finder.js';

/** The model name `--gold` evaluates under. */
export const GOLD_MODEL = 'gold';

export interface EvaluateStepOptions {
  /** The project: the default `outDir` is under it. */
  readonly projectRoot: string;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  /** A release folder (publish's layout, or one downloaded from the Hub). */
  readonly release: string;
  /** Default: the release's default config (`data/`). */
  readonly version?: string;
  /** The predictions file; not read with `gold`. */
  readonly predictions?: string;
  /** Evaluates the release's own gold patches: every valid task must resolve. */
  readonly gold?: boolean;
  /** Default: the predictions file's name (or `gold`) and the release version, e.g. `preds@1.0`. */
  readonly runId?: string;
  /** Only these tasks of the release. */
  readonly instances?: readonly string[];
  /**
   * Only the tasks whose body changed on or after this date (UTC, from parseChangedSince), by the release's
   * tasks.jsonl (`body_changed_at`): a model scored on code newer than its training cutoff. A task without a body
   * date is left out.
   */
  readonly since?: string;
  /** Seconds per task's run (default: the manifest's timeout, REPOCOD's limit). */
  readonly timeoutSeconds?: number;
  /** Where each run's logs and reports go (default out/evaluations in the project). */
  readonly outDir?: string;
  /** Run again what the catalog already has. */
  readonly fresh?: boolean;
  /** Stop each run at the first failing test, as REPOCOD's evaluator does (`pytest -x`; EXIT_FIRST_ARGS). */
  readonly exitFirst?: boolean;
  /** How a completion goes into its function (insertion-mode.ts in evaluate): default lenient. */
  readonly insertion?: InsertionMode;
  readonly onEvent?: (event: EvaluateEvent) => void;
}

export type EvaluateEvent =
  | {
      readonly kind: 'evaluate-start';
      readonly runId: string;
      readonly release: string;
      readonly version: string;
      readonly tasks: number;
      readonly predictions: number;
      readonly problems: readonly PredictionProblem[];
      /** With --since: the date and the tasks it left out; null without. */
      readonly since: SinceScope | null;
    }
  | {
      readonly kind: 'evaluate-repository';
      readonly repository: string;
      readonly predictions: number;
      readonly jobs: number;
      /** Predictions graded from runs of their job the catalog already holds (validation's fit runs, for gold). */
      readonly fromRuns: number;
      /** Predictions this run evaluated earlier (a resumed run): kept, not graded again. */
      readonly fromCatalog: number;
      readonly workers: number;
    }
  | {
      readonly kind: 'evaluate-task';
      readonly repository: string;
      readonly model: string;
      readonly instanceId: string;
      readonly outcome: string;
      readonly detail: string;
      readonly done: number;
      readonly total: number;
      readonly resolved: number;
    };

export interface EvaluateSummary {
  readonly runId: string;
  readonly release: string;
  readonly version: string;
  /** With --since: the date, how many tasks were scored and which were left out; null without. */
  readonly since: SinceScope | null;
  /** Predictions that could not be read, matched or run, each named. */
  readonly problems: readonly PredictionProblem[];
  /** One report per model, written to `<outDir>/<run id>/<model>/report.json`. */
  readonly reports: readonly WrittenReport[];
  /** Predictions graded by this run: their tests run now, or read from runs of the same job the catalog holds. */
  readonly evaluatedNow: number;
  /** Of those, graded from stored runs (for gold: validation's fit runs), no test run. */
  readonly gradedFromRuns: number;
  /** Predictions an earlier, interrupted pass of this evaluation graded: kept, not graded again. */
  readonly fromCatalog: number;
  readonly durationSeconds: number;
}

/**
 * Each prediction on its task's pre state, the hidden tests restored, its
 * FAIL_TO_PASS run once on the shared runner (worktrees of the task's repository in parallel, or
 * Redis workers), graded apart (evaluate/evaluation-outcome.ts). Every outcome goes to the catalog
 * under the run id as soon as it is in, so a rerun resumes and never runs the same prediction twice,
 * with per-task logs under `<outDir>/<run id>/<model>/<instance>/`, then a report per model.
 */
export async function evaluateStep(
  catalog: Catalog,
  repositories: PreparedRepositories,
  options: EvaluateStepOptions,
): Promise<EvaluateSummary> {
  const started = performance.now();
  const release = readRelease(options.release, options.version);
  const named = tasksInScope(release.tasks, options.instances, release.file);
  const dated =
    options.since === undefined
      ? null
      : tasksSince(
          named,
          (task) => task.meta?.bodyChangedAt ?? null,
          options.since,
          `${options.release} (version ${release.version})`,
        );
  const scope = dated?.tasks ?? named;
  const since = dated?.scope ?? null;
  const read = readPredictions(options, scope);
  const runId = options.runId ?? defaultRunId(options, release.version);
  const outDir = options.outDir ?? join(options.projectRoot, 'out', 'evaluations');
  const entries = repositories.manifestEntries();
  const repositoryOf = new Map(scope.map((task) => [task.instanceId, repositoryOfTask(task, entries)]));
  await catalog.saveEvaluationRun({
    runId,
    release: options.release,
    version: release.version,
    tasks: runScopeText({ tasks: reportTasks(scope, repositoryOf), since, insertion: options.insertion }),
    startedAt: new Date(),
  });

  const inScope = predictionsInScope(read.predictions, release, scope, options.release);
  const problems: PredictionProblem[] = [...read.problems, ...inScope.problems];
  const { predictions } = inScope;
  options.onEvent?.({
    kind: 'evaluate-start',
    runId,
    release: options.release,
    version: release.version,
    tasks: scope.length,
    predictions: predictions.length,
    problems,
    since,
  });

  const earlier = await earlierEvaluations(catalog, runId);
  problems.push(...unplacedPredictions(scope, predictions, repositoryOf));
  const counts = { evaluatedNow: 0, gradedFromRuns: 0, fromCatalog: 0 };
  for (const repository of predictedRepositories(predictions, repositoryOf)) {
    const tasks = scope.filter((task) => repositoryOf.get(task.instanceId) === repository);
    const run = { repository, runId, outDir, tasks, predictions, earlier, problems };
    const repositoryCounts = await evaluateRepository(catalog, await repositories.get(repository), options, run);
    counts.evaluatedNow += repositoryCounts.evaluatedNow;
    counts.gradedFromRuns += repositoryCounts.gradedFromRuns;
    counts.fromCatalog += repositoryCounts.fromCatalog;
  }

  const reports = writeReportFiles(outDir, runId, await evaluationReports(catalog, runId));
  const durationSeconds = (performance.now() - started) / 1000;
  const { version } = release;
  return { runId, release: options.release, version, since, problems, reports, ...counts, durationSeconds };
}

/** What this run evaluated before (a resumed run), by model and task. */
async function earlierEvaluations(catalog: Catalog, runId: string): Promise<Map<string, StoredEvaluation>> {
  const rows = await catalog.evaluations(runId);
  return new Map(rows.map((row) => [evaluationRowKey(row.model, row.instanceId), row] as const));
}

/** The key of a stored evaluation within its run: one model's prediction for one task. */
function evaluationRowKey(model: string, instanceId: string): string {
  return `${model}\n${instanceId}`;
}

/** The tasks as the run's reports name them (the catalog keeps them with the run). */
function reportTasks(
  scope: readonly ReleaseTask[],
  repositoryOf: ReadonlyMap<string, string | undefined>,
): ReportTask[] {
  return scope.map((task) => ({
    instanceId: task.instanceId,
    repository: repositoryOf.get(task.instanceId) ?? task.repo,
    level: task.meta?.level ?? null,
    complexity: task.meta?.complexity ?? null,
    solutionTokens: task.meta?.solutionTokens ?? null,
  }));
}

/**
 * The predictions of tasks in scope, and REPOCOD's (matched with a task later); one naming a task the
 * release does not have is a problem (a task of the release left out by --instances is passed over).
 */
function predictionsInScope(
  predictions: readonly Prediction[],
  release: ReadRelease,
  scope: readonly ReleaseTask[],
  releaseFolder: string,
): { predictions: Prediction[]; problems: PredictionProblem[] } {
  const inRelease = new Set(release.tasks.map((task) => task.instanceId));
  const inScope = new Set(scope.map((task) => task.instanceId));
  const kept: Prediction[] = [];
  const problems: PredictionProblem[] = [];
  for (const prediction of predictions) {
    const id = predictionInstanceId(prediction);
    if (id === null || inScope.has(id)) kept.push(prediction);
    else if (!inRelease.has(id))
      problems.push({
        source: prediction.source,
        field: 'instance_id',
        message: `${id} is not a task of ${releaseFolder} (version ${release.version})`,
      });
  }
  return { predictions: kept, problems };
}

/** The repositories predictions are for, by name: their tasks', or the one REPOCOD's name. */
function predictedRepositories(
  predictions: readonly Prediction[],
  repositoryOf: ReadonlyMap<string, string | undefined>,
): string[] {
  const named = predictions.flatMap((prediction) => {
    const id = predictionInstanceId(prediction);
    if (id !== null) return [repositoryOf.get(id) ?? null].filter((name): name is string => name !== null);
    return prediction.target.kind === 'repocod' ? [prediction.target.repository] : [];
  });
  return [...new Set(named)].sort();
}

/** A problem for each prediction of a task no repository of the manifest is. */
function unplacedPredictions(
  scope: readonly ReleaseTask[],
  predictions: readonly Prediction[],
  repositoryOf: ReadonlyMap<string, string | undefined>,
): PredictionProblem[] {
  return scope
    .filter((task) => repositoryOf.get(task.instanceId) === undefined)
    .flatMap((task) =>
      predictions
        .filter((prediction) => predictionInstanceId(prediction) === task.instanceId)
        .map((prediction) => ({
          source: prediction.source,
          field: null,
          message:
            `no repository of the manifest is ${task.repo} (task ${task.instanceId}): give the manifest the ` +
            `release was built with (--manifest) or the clone (--source NAME=PATH)`,
        })),
    );
}

interface RepositoryRun {
  readonly repository: string;
  readonly runId: string;
  readonly outDir: string;
  readonly tasks: readonly ReleaseTask[];
  readonly predictions: readonly Prediction[];
  readonly earlier: ReadonlyMap<string, StoredEvaluation>;
  readonly problems: PredictionProblem[];
}

interface Graded {
  readonly grade: EvaluationGrade;
  readonly result: JobResult | null;
}

/**
 * A repository's predictions bound to their specs, each spec's job submitted to one pool at once, the
 * repository's line shown once the pool knows what it will run, then each prediction recorded as it is graded.
 */
async function evaluateRepository(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: EvaluateStepOptions,
  run: RepositoryRun,
): Promise<{ evaluatedNow: number; gradedFromRuns: number; fromCatalog: number }> {
  const bound = bindPredictions(run.predictions, run.tasks, {
    repository: run.repository,
    checkout: new SiteFinder(prepared, await loadPythonParser()),
    timeoutSeconds: options.timeoutSeconds ?? prepared.entry.timeoutSeconds,
    exitFirst: options.exitFirst === true,
    insertion: options.insertion ?? 'lenient',
  });
  run.problems.push(...bound.problems);
  const pool = new JobPool(new CatalogJobStore(catalog, prepared), (options.executor ?? localExecutor)(prepared));
  const fresh = options.fresh === true;
  const toEvaluate = bound.specs.filter((spec) => !keptFromEarlier(spec, run.earlier, fresh));
  const fromCatalog = bound.specs.length - toEvaluate.length;
  const taskEvent = taskEvents(run.repository, toEvaluate.length);
  // Every prediction submits its job at once; the repository's line comes before any prediction's.
  let announced: () => void = () => undefined;
  const lineShown = new Promise<void>((resolve) => {
    announced = resolve;
  });
  const evaluations = toEvaluate.map(async (spec) => {
    const graded = await gradedSpec(pool, spec, fresh);
    await lineShown;
    await recordEvaluation(catalog, run, spec, graded);
    options.onEvent?.(taskEvent(spec, graded.grade));
  });
  const plan = await pool.plan();
  options.onEvent?.({
    kind: 'evaluate-repository',
    repository: run.repository,
    predictions: bound.specs.length,
    jobs: plan.toRun,
    fromRuns: plan.fromCatalog,
    fromCatalog,
    workers: pool.parallelism,
  });
  announced();
  pool.start();
  await Promise.all(evaluations);
  return { evaluatedNow: toEvaluate.length, gradedFromRuns: plan.fromCatalog, fromCatalog };
}

/** A prediction this run evaluated before is kept (an error is tried again). */
function keptFromEarlier(
  spec: EvaluationSpec,
  earlier: ReadonlyMap<string, StoredEvaluation>,
  fresh: boolean,
): boolean {
  const stored = earlier.get(evaluationRowKey(spec.prediction.model, spec.task.instanceId));
  return !fresh && stored?.evaluationKey === spec.evaluationKey && stored.outcome !== 'error';
}

/** A spec graded: from its job's result, submitted to the pool, or without one when nothing runs. */
async function gradedSpec(pool: JobPool, spec: EvaluationSpec, fresh: boolean): Promise<Graded> {
  if (spec.job === null) return { grade: gradeWithoutRun(spec), result: null };
  // A timeout or a crash is the prediction's outcome; only a run that could not start is run again.
  const result = await pool.submit(spec.job, { fresh, rerun: ['infra-error'] });
  return { grade: gradeSpecRun(spec, result), result };
}

/** A graded prediction stored in the catalog under the run, and its logs written. */
async function recordEvaluation(
  catalog: Catalog,
  run: RepositoryRun,
  spec: EvaluationSpec,
  { grade, result }: Graded,
): Promise<void> {
  await catalog.saveEvaluation({
    runId: run.runId,
    model: spec.prediction.model,
    instanceId: spec.task.instanceId,
    repository: run.repository,
    evaluationKey: spec.evaluationKey,
    predictionSource: spec.prediction.source,
    outcome: grade.outcome,
    detail: grade.detail,
    failingTests: JSON.stringify(grade.failingTests),
    jobHash: result?.jobHash ?? null,
    runIds: result === null ? [] : jobRunIds(result),
    seconds: result?.runs.reduce((sum, r) => sum + r.durationSeconds, 0) ?? 0,
    evaluatedAt: new Date(),
  });
  writeTaskLogs(taskLogFolder(run.outDir, run.runId, spec), spec, grade, result);
}

/** The `evaluate-task` events of a repository's predictions, counting those done and resolved. */
function taskEvents(
  repository: string,
  total: number,
): (spec: EvaluationSpec, grade: EvaluationGrade) => EvaluateEvent {
  let done = 0;
  let resolved = 0;
  return (spec, grade) => {
    done++;
    if (grade.outcome === 'resolved') resolved++;
    return {
      kind: 'evaluate-task',
      repository,
      model: spec.prediction.model,
      instanceId: spec.task.instanceId,
      outcome: grade.outcome,
      detail: grade.detail,
      done,
      total,
      resolved,
    };
  };
}

/** The manifest entry a release's task belongs to: tasks.jsonl's repository, else the `repo` column. */
export function repositoryOfTask(task: ReleaseTask, entries: readonly ManifestEntry[]): string | undefined {
  if (task.meta !== null && entries.some((entry) => entry.name === task.meta?.repository)) return task.meta.repository;
  const ownerName = (url: string | null | undefined): string | null =>
    url === null || url === undefined ? null : (/([^/:]+\/[^/]+?)(?:\.git)?\/?$/.exec(url)?.[1] ?? null);
  return entries.find(
    (entry) =>
      entry.name === task.repo ||
      ownerName(entry.url) === task.repo ||
      ownerName('upstream' in entry ? entry.upstream : null) === task.repo,
  )?.name;
}

function tasksInScope(
  tasks: readonly ReleaseTask[],
  instances: readonly string[] | undefined,
  file: string,
): ReleaseTask[] {
  if (instances === undefined || instances.length === 0) return [...tasks];
  const known = new Set(tasks.map((task) => task.instanceId));
  const unknown = instances.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new RepocodError('usage', `--instances ${unknown.join(', ')}: not a task of ${file}`);
  return tasks.filter((task) => instances.includes(task.instanceId));
}

function readPredictions(
  options: EvaluateStepOptions,
  scope: readonly ReleaseTask[],
): { predictions: Prediction[]; problems: PredictionProblem[] } {
  if (options.gold === true)
    return {
      predictions: scope.map((task) => ({
        target: { kind: 'instance', instanceId: task.instanceId },
        model: GOLD_MODEL,
        change: { kind: 'patch', patch: task.goldCode },
        source: 'gold',
      })),
      problems: [],
    };
  const file = options.predictions;
  if (file === undefined)
    throw new RepocodError('usage', 'give --predictions FILE (or --gold to evaluate the gold patches)');
  if (!existsSync(file)) throw new RepocodError('path-not-found', `${file}: no such predictions file`);
  const read = parsePredictions(readFileSync(file, 'utf8'), file);
  return { predictions: [...read.predictions], problems: [...read.problems] };
}

/** `preds@1.0`; a run --since has its own (`gold@2.0-since-2025-06-01`), so that it never takes another's scope. */
function defaultRunId(options: EvaluateStepOptions, version: string): string {
  const name =
    options.gold === true ? GOLD_MODEL : basename(options.predictions ?? 'predictions').replace(/\.(jsonl|json)$/i, '');
  const since = options.since === undefined ? '' : `-since-${options.since.replace(/T00:00:00Z$/, '')}`;
  // A run under REPOCOD's insertion is another run: its outcomes differ from the lenient one's by design.
  const insertion = options.insertion === 'repocod' ? '-insert-repocod' : '';
  return `${name}@${version}${since}${insertion}`;
}
