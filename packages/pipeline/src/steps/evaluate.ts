import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Catalog, StoredEvaluation } from '@repocod/catalog';
import { contentHash, RepocodError } from '@repocod/core';
import type {
  CompletionSite,
  EvaluatedTask,
  EvaluationGrade,
  EvaluationReport,
  NamedTask,
  Prediction,
  PredictionProblem,
  ReportTask,
} from '@repocod/evaluate';
import {
  completionPatch,
  completionSite,
  EVALUATION_VERSION,
  evaluationJob,
  gradeEvaluation,
  matchRepocodTargets,
  modelPatchPosition,
  parsePredictions,
  predictionInstanceId,
} from '@repocod/evaluate';
import { loadPythonParser } from '@repocod/python';
import type { ReleaseTask } from '@repocod/publish';
import { readRelease } from '@repocod/publish';
import type { ExecutorFactory, JobResult, ManifestEntry, PreparedRepository } from '@repocod/runner';
import { jobRunIds, localExecutor } from '@repocod/runner';
import { evaluationReports } from '../reports/evaluation-reports.js';
import { JobPool } from '../jobs/job-pool.js';
import type { PreparedRepositories } from './prepare.js';

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
  /** Seconds per task's run (default: the manifest's timeout, REPOCOD's limit). */
  readonly timeoutSeconds?: number;
  /** Where each run's logs and reports go (default out/evaluations in the project). */
  readonly outDir?: string;
  /** Run again what the catalog already has. */
  readonly fresh?: boolean;
  /** Stop each run at the first failing test, as REPOCOD's evaluator does (`pytest -x`; EXIT_FIRST_ARGS). */
  readonly exitFirst?: boolean;
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
  /** Predictions that could not be read, matched or run, each named. */
  readonly problems: readonly PredictionProblem[];
  /** One report per model, written to `<outDir>/<run id>/<model>/report.json`. */
  readonly reports: readonly { readonly model: string; readonly report: EvaluationReport; readonly file: string }[];
  readonly evaluatedNow: number;
  readonly fromCatalog: number;
  readonly durationSeconds: number;
}

/** A prediction bound to its task, ready to be graded or run. */
interface Pending {
  readonly prediction: Prediction;
  readonly task: ReleaseTask;
  readonly repository: string;
  readonly evaluationKey: string;
  /** The model's change as a diff of the pre state, or null (empty). */
  readonly modelPatch: string | null;
  /** Set when the prediction could not be turned into a job (no site for a completion). */
  readonly failure: EvaluationGrade | null;
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
  const scope = tasksInScope(release.tasks, options.instances, release.file);
  const read = readPredictions(options, scope);
  const runId = options.runId ?? defaultRunId(options, release.version);
  const outDir = options.outDir ?? join(options.projectRoot, 'out', 'evaluations');
  const entries = repositories.manifestEntries();
  const repositoryOf = new Map(scope.map((task) => [task.instanceId, repositoryOfTask(task, entries)]));
  const reportTasks: ReportTask[] = scope.map((task) => ({
    instanceId: task.instanceId,
    repository: repositoryOf.get(task.instanceId) ?? task.repo,
    level: task.meta?.level ?? null,
    complexity: task.meta?.complexity ?? null,
    solutionTokens: task.meta?.solutionTokens ?? null,
  }));
  await catalog.saveEvaluationRun({
    runId,
    release: options.release,
    version: release.version,
    tasks: JSON.stringify(reportTasks),
    startedAt: new Date(),
  });

  const problems: PredictionProblem[] = [...read.problems];
  const inRelease = new Set(release.tasks.map((task) => task.instanceId));
  const byId = new Map(scope.map((task) => [task.instanceId, task]));
  const predictions: Prediction[] = [];
  for (const prediction of read.predictions) {
    const id = predictionInstanceId(prediction);
    if (id === null || byId.has(id)) predictions.push(prediction);
    else if (!inRelease.has(id))
      problems.push({
        source: prediction.source,
        field: 'instance_id',
        message: `${id} is not a task of ${options.release} (version ${release.version})`,
      });
  }
  options.onEvent?.({
    kind: 'evaluate-start',
    runId,
    release: options.release,
    version: release.version,
    tasks: scope.length,
    predictions: predictions.length,
    problems,
  });

  const earlier = new Map(
    (await catalog.evaluations(runId)).map((row) => [evaluationRowKey(row.model, row.instanceId), row] as const),
  );
  let evaluatedNow = 0;
  let fromCatalog = 0;
  const predicted = [
    ...new Set([
      ...predictions.flatMap((prediction) => {
        const id = predictionInstanceId(prediction);
        if (id !== null) return [repositoryOf.get(id) ?? null].filter((name): name is string => name !== null);
        return prediction.target.kind === 'repocod' ? [prediction.target.repository] : [];
      }),
    ]),
  ].sort();
  for (const task of scope) {
    if (repositoryOf.get(task.instanceId) !== undefined) continue;
    for (const prediction of predictions.filter((p) => predictionInstanceId(p) === task.instanceId))
      problems.push({
        source: prediction.source,
        field: null,
        message: `no repository of the manifest is ${task.repo} (task ${task.instanceId}): give the manifest the \
release was built with (--manifest) or the clone (--source NAME=PATH)`,
      });
  }
  for (const repository of predicted) {
    const counts = await evaluateRepository(catalog, await repositories.get(repository), options, {
      repository,
      runId,
      outDir,
      tasks: scope.filter((task) => repositoryOf.get(task.instanceId) === repository),
      predictions,
      earlier,
      problems,
    });
    evaluatedNow += counts.evaluatedNow;
    fromCatalog += counts.fromCatalog;
  }

  const reports = (await evaluationReports(catalog, runId)).map(({ model, report }) => {
    const folder = join(outDir, runId, modelFolder(model));
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'report.json');
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    return { model, report, file };
  });
  return {
    runId,
    release: options.release,
    version: release.version,
    problems,
    reports,
    evaluatedNow,
    fromCatalog,
    durationSeconds: (performance.now() - started) / 1000,
  };
}

/** The key of a stored evaluation within its run: one model's prediction for one task. */
function evaluationRowKey(model: string, instanceId: string): string {
  return `${model}\n${instanceId}`;
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

async function evaluateRepository(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: EvaluateStepOptions,
  run: RepositoryRun,
): Promise<{ evaluatedNow: number; fromCatalog: number }> {
  const timeoutSeconds = options.timeoutSeconds ?? prepared.entry.timeoutSeconds;
  const parser = await loadPythonParser();
  const sites = new SiteFinder(prepared, parser);
  const ids = new Set(run.tasks.map((task) => task.instanceId));
  const ofRepository = run.predictions.filter((prediction) => {
    const id = predictionInstanceId(prediction);
    return id === null
      ? prediction.target.kind === 'repocod' && prediction.target.repository === run.repository
      : ids.has(id);
  });
  // Names only for REPOCOD's predictions: a release without tasks.jsonl has them from the parsed files.
  const named: NamedTask[] = ofRepository.some((prediction) => prediction.target.kind === 'repocod')
    ? run.tasks.map((task) => ({
        instanceId: task.instanceId,
        repository: run.repository,
        file: task.meta?.file ?? sites.site(task)?.file ?? '',
        qualname: task.meta?.qualname ?? sites.site(task)?.qualname ?? '',
        prompt: task.problemCode === '' ? null : promptOf(task.problemCode),
      }))
    : [];
  const matched = matchRepocodTargets(ofRepository, named);
  run.problems.push(...matched.problems);

  const byId = new Map(run.tasks.map((task) => [task.instanceId, task]));
  const pending: Pending[] = matched.predictions.flatMap((prediction) => {
    const task = byId.get(predictionInstanceId(prediction) ?? '');
    return task === undefined
      ? []
      : [bind(prediction, task, run.repository, prepared, sites, timeoutSeconds, options.exitFirst === true)];
  });
  const pool = new JobPool(catalog, prepared, (options.executor ?? localExecutor)(prepared));
  const graded = async (entry: Pending): Promise<{ grade: EvaluationGrade; result: JobResult | null }> => {
    if (entry.failure !== null) return { grade: entry.failure, result: null };
    if (entry.modelPatch === null)
      return { grade: { outcome: 'empty', detail: 'the prediction is empty', failingTests: [] }, result: null };
    const task = evaluatedTask(entry.task, run.repository);
    const exitFirst = options.exitFirst === true;
    const job = evaluationJob(task, entry.modelPatch, timeoutSeconds, exitFirst);
    // A timeout or a crash is the prediction's outcome; only a run that could not start is run again.
    const result = await pool.submit(job, { fresh: options.fresh === true, rerun: ['infra-error'] });
    return { grade: gradeEvaluation(entry.task, result, modelPatchPosition(entry.task), { exitFirst }), result };
  };
  // A prediction this run evaluated before is kept (an error is tried again).
  const kept = (entry: Pending): boolean => {
    const stored = run.earlier.get(evaluationRowKey(entry.prediction.model, entry.task.instanceId));
    return options.fresh !== true && stored?.evaluationKey === entry.evaluationKey && stored.outcome !== 'error';
  };
  const toEvaluate = pending.filter((entry) => !kept(entry));
  const fromCatalog = pending.length - toEvaluate.length;
  const total = toEvaluate.length;
  let done = 0;
  let resolved = 0;
  const finish = async (entry: Pending, grade: EvaluationGrade, result: JobResult | null): Promise<void> => {
    await catalog.saveEvaluation({
      runId: run.runId,
      model: entry.prediction.model,
      instanceId: entry.task.instanceId,
      repository: run.repository,
      evaluationKey: entry.evaluationKey,
      predictionSource: entry.prediction.source,
      outcome: grade.outcome,
      detail: grade.detail,
      failingTests: JSON.stringify(grade.failingTests),
      jobHash: result?.jobHash ?? null,
      runIds: result === null ? [] : jobRunIds(result),
      seconds: result?.runs.reduce((sum, r) => sum + r.durationSeconds, 0) ?? 0,
      evaluatedAt: new Date(),
    });
    writeTaskLogs(
      join(run.outDir, run.runId, modelFolder(entry.prediction.model), entry.task.instanceId),
      entry,
      grade,
      result,
    );
    done++;
    if (grade.outcome === 'resolved') resolved++;
    options.onEvent?.({
      kind: 'evaluate-task',
      repository: run.repository,
      model: entry.prediction.model,
      instanceId: entry.task.instanceId,
      outcome: grade.outcome,
      detail: grade.detail,
      done,
      total,
      resolved,
    });
  };
  // Every prediction submits its job at once; the repository's line comes before any prediction's.
  let announced: () => void = () => undefined;
  const lineShown = new Promise<void>((resolve) => {
    announced = resolve;
  });
  const evaluations = toEvaluate.map(async (entry) => {
    const { grade, result } = await graded(entry);
    await lineShown;
    await finish(entry, grade, result);
  });
  const plan = await pool.plan();
  options.onEvent?.({
    kind: 'evaluate-repository',
    repository: run.repository,
    predictions: pending.length,
    jobs: plan.toRun,
    fromRuns: plan.fromCatalog,
    fromCatalog,
    workers: pool.parallelism,
  });
  announced();
  pool.start();
  await Promise.all(evaluations);
  return { evaluatedNow: total, fromCatalog };
}

function bind(
  prediction: Prediction,
  task: ReleaseTask,
  repository: string,
  prepared: PreparedRepository,
  sites: SiteFinder,
  timeoutSeconds: number,
  exitFirst: boolean,
): Pending {
  const base = { prediction, task, repository };
  const key = (modelPatch: string | null, failure: string | null): string =>
    contentHash(
      JSON.stringify({
        version: EVALUATION_VERSION,
        change: prediction.change,
        modelPatch,
        failure,
        task: [task.preCode, task.preTest, task.goldCode, task.goldTest, task.failToPass].map((part) =>
          contentHash(JSON.stringify(part)),
        ),
        environment: prepared.environment.key,
        timeoutSeconds,
        ...(exitFirst ? { exitFirst } : {}),
      }),
    );
  if (task.baseCommit !== prepared.checkout.baseCommit) {
    const failure: EvaluationGrade = {
      outcome: 'error',
      detail: `the task's base commit ${task.baseCommit.slice(0, 12)} is not the prepared checkout's \
${prepared.checkout.baseCommit.slice(0, 12)}: evaluate with the manifest and sources the release was built with`,
      failingTests: [],
    };
    return { ...base, evaluationKey: key(null, failure.detail), modelPatch: null, failure };
  }
  const { change } = prediction;
  if (change.kind === 'empty') return { ...base, evaluationKey: key(null, null), modelPatch: null, failure: null };
  if (change.kind === 'patch') {
    // A diff pasted from a JSON string often lost its last newline, which git apply takes for a corrupt patch.
    const patch = change.patch.endsWith('\n') ? change.patch : `${change.patch}\n`;
    return { ...base, evaluationKey: key(patch, null), modelPatch: patch, failure: null };
  }
  let site: CompletionSite | null;
  try {
    site = sites.site(task, true);
  } catch (error) {
    const detail = `the completion has no place to go: ${error instanceof Error ? error.message : String(error)}`;
    return {
      ...base,
      evaluationKey: key(null, detail),
      modelPatch: null,
      failure: { outcome: 'error', detail, failingTests: [] },
    };
  }
  const patch = site === null ? null : completionPatch(site, change.completion);
  return { ...base, evaluationKey: key(patch?.patch ?? null, null), modelPatch: patch?.patch ?? null, failure: null };
}

/** The completion sites of a repository's tasks, from the prepared checkout (the base commit's files). */
class SiteFinder {
  private readonly found = new Map<string, CompletionSite | Error>();

  constructor(
    private readonly prepared: PreparedRepository,
    private readonly parser: Awaited<ReturnType<typeof loadPythonParser>>,
  ) {}

  /** The site, or null when it cannot be found (thrown instead with `strict`). */
  site(task: ReleaseTask, strict = false): CompletionSite | null {
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
    if (site instanceof Error) {
      if (strict) throw site;
      return null;
    }
    return site;
  }
}

function evaluatedTask(task: ReleaseTask, repository: string): EvaluatedTask {
  return {
    instanceId: task.instanceId,
    repository,
    baseCommit: task.baseCommit,
    preCode: task.preCode,
    preTest: task.preTest,
    goldCode: task.goldCode,
    goldTest: task.goldTest,
    failToPass: task.failToPass,
  };
}

/** The manifest entry a release's task belongs to: tasks.jsonl's repository, else the `repo` column. */
function repositoryOfTask(task: ReleaseTask, entries: readonly ManifestEntry[]): string | undefined {
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

function defaultRunId(options: EvaluateStepOptions, version: string): string {
  const name =
    options.gold === true ? GOLD_MODEL : basename(options.predictions ?? 'predictions').replace(/\.(jsonl|json)$/i, '');
  return `${name}@${version}`;
}

/** A model name as a folder name (`org/model` → `org__model`). */
export function modelFolder(model: string): string {
  return model.replace(/[/\\]/g, '__').replace(/[^\w.@+-]/g, '_');
}

/** The prompt of a problem statement: its first fenced code block, else the statement itself. */
function promptOf(statement: string): string {
  return /```(?:python)?\n([\s\S]*?)```/.exec(statement)?.[1] ?? statement;
}

function writeTaskLogs(folder: string, entry: Pending, grade: EvaluationGrade, result: JobResult | null): void {
  mkdirSync(folder, { recursive: true });
  if (entry.modelPatch !== null) writeFileSync(join(folder, 'model.patch'), entry.modelPatch);
  const run = result?.runs[0];
  writeFileSync(join(folder, 'test_output.txt'), result?.patchError ?? run?.log ?? '');
  writeFileSync(
    join(folder, 'results.json'),
    `${JSON.stringify(
      {
        instance_id: entry.task.instanceId,
        model: entry.prediction.model,
        prediction: entry.prediction.source,
        outcome: grade.outcome,
        detail: grade.detail,
        failing_tests: grade.failingTests,
        tests:
          run?.results.map((test) => ({ node_id: test.nodeId, outcome: test.outcome, seconds: test.duration })) ?? [],
        run_ids: result === null ? [] : jobRunIds(result),
      },
      null,
      2,
    )}\n`,
  );
}
