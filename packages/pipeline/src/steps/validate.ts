import type { Catalog, StoredTask, StoredValidation } from '@repocod/catalog';
import { contentHash, RepocodError } from '@repocod/core';
import type { ExecutorFactory, JobResult, PreparedRepository, TestOutcome } from '@repocod/runner';
import { baselineRunsOf, catalogName, jobRunIds, localExecutor, projectName, validateRunsOf } from '@repocod/runner';
import type { SubmitOptions } from '@repocod/runner';
import { JobPool } from '@repocod/runner';
import { CatalogJobStore } from '../jobs/catalog-job-store.js';
import { miningKeyOf } from './mining-key.js';
import { tasksOfSelection } from './selection-tasks.js';
import type { PreparedRepositories } from './prepare.js';
import { toolVersion } from '../records/tool-version.js';
import {
  fitFromDurations,
  fitRunJob,
  taskHash,
  testsRemovedCollectJob,
  validationJobs,
  wholeWithoutBodyJob,
} from '@repocod/validate';
import type { FitEvidence, GoldEvidence, TaskVerdict } from '@repocod/validate';
import { needsTestsRemovedCollect, taskVerdict, withoutBodyUndecided } from '@repocod/validate';

/**
 * Bumped when the checks change what they decide: validations stored under an older version are redone.
 * 2: FAIL_TO_PASS kept whole by default (one test failing without the body is enough); gold from the baseline.
 * 3: the whole FAIL_TO_PASS must fit the limit of one run on the gold state (validate's gold-fit.ts).
 * 4: that run is made (the job evaluate --gold runs) unless mining's durations already exceed the limit.
 */
export const VALIDATION_VERSION = 4;

export interface ValidateStepOptions {
  /** The project whose tool version each verdict records. */
  readonly projectRoot: string;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  /** The selection whose tasks are validated (default: the latest). */
  readonly selectionId?: string;
  /** Only the tasks of these repositories (manifest names). */
  readonly repositories?: readonly string[];
  /** Runs with the gold patches (k; default: each repository's validate_runs in the manifest, else 3). */
  readonly repeat?: number;
  /** Seconds per pytest run (default: the manifest's timeout). */
  readonly timeoutSeconds?: number;
  /** Validate again the tasks that failed a check (infrastructure errors are always retried). */
  readonly retryFailed?: boolean;
  /** Run every job again instead of answering it from the catalog's stored runs. */
  readonly fresh?: boolean;
  /** Narrow FAIL_TO_PASS to the tests that fail without the body (see VerdictInput.narrow). */
  readonly narrow?: boolean;
  /** Run the gold patches k times even where mining's baseline of the same environment answers the check. */
  readonly goldRuns?: boolean;
  readonly onEvent?: (event: ValidateEvent) => void;
}

export type ValidateEvent =
  | {
      readonly kind: 'validate-repository';
      readonly repository: string;
      readonly tasks: number;
      readonly toValidate: number;
      readonly jobs: number;
      readonly jobsFromCatalog: number;
      /** Tasks to validate whose gold check mining's baseline answers (no gold job for them). */
      readonly goldFromBaseline: number;
    }
  | {
      readonly kind: 'validate-task';
      readonly repository: string;
      readonly instanceId: string;
      readonly status: TaskVerdict['status'];
      /**
       * The first check that did not pass and its one line (`fails-without-body: 2 of 13 …`); null when it
       * passed.
       */
      readonly problem: string | null;
      readonly done: number;
      readonly total: number;
    };

export interface RepositoryValidation {
  readonly repository: string;
  readonly pythonVersion: string;
  readonly packagesHash: string;
  readonly environmentKey: string;
  /** Jobs that ran at once (the local pool's worktrees, or the distributed workers' job slots). */
  readonly workers: number;
  /** k: runs with the gold patches (or of mining's baseline), from --repeat or the manifest's validate_runs. */
  readonly repeat: number;
  readonly tasks: number;
  /** Tasks validated in this run (the others had a verdict from an earlier run). */
  readonly validatedNow: number;
  /** Jobs run now, and jobs whose runs were already in the catalog. */
  readonly jobsRun: number;
  readonly jobsFromCatalog: number;
  /** Tasks validated now whose gold check mining's baseline answered, and the mining key of that baseline. */
  readonly goldFromBaseline: number;
  readonly baselineKey: string | null;
}

export interface ValidateSummary {
  readonly selectionId: string;
  /** --repeat as given; each repository's k is in its RepositoryValidation. */
  readonly repeat: number | undefined;
  readonly toolVersion: string;
  readonly repositories: readonly RepositoryValidation[];
  /** The current validation of every task validated (this run's or an earlier one's), by instance id. */
  readonly validations: readonly StoredValidation[];
  readonly durationSeconds: number;
}

/**
 * Every task of a selection checked with the shared runner: the pre state
 * collects; with the tests restored, a FAIL_TO_PASS test fails without the body (every one with
 * --narrow, which drops the others); with the gold code, every one passes in each of k runs (tests
 * that flip are removed and recorded), answered by mining's k baseline runs of the same environment
 * when there are some (the gold state is the base commit byte for byte). Each task's
 * verdict is stored as soon as its three checks are in, with its provenance (tool, Python, packages,
 * run ids), so a killed run resumes with the tasks that have none; tasks of one repository run in
 * parallel on its worktree pool.
 */
export async function validateStep(
  catalog: Catalog,
  prepared: PreparedRepositories,
  options: ValidateStepOptions,
): Promise<ValidateSummary> {
  const started = performance.now();
  const { selectionId, tasks } = await selectedTasks(catalog, options.selectionId, options.repositories);
  const tool = toolVersion(options.projectRoot);
  const repositories: RepositoryValidation[] = [];
  const validations: StoredValidation[] = [];
  for (const [repository, ofRepository] of groupBy(tasks, (task) => task.repository)) {
    const ready = await prepared.ofCatalogName(repository);
    const repeat = validateRunsOf(ready.entry, options.repeat);
    const result = await validateRepository(catalog, ready, ofRepository, { ...options, repeat, tool });
    repositories.push(result.repository);
    validations.push(...result.validations);
  }
  return {
    selectionId,
    repeat: options.repeat,
    toolVersion: tool,
    repositories,
    validations,
    durationSeconds: (performance.now() - started) / 1000,
  };
}

async function selectedTasks(
  catalog: Catalog,
  selectionId: string | undefined,
  repositories: readonly string[] | undefined,
): Promise<{ selectionId: string; tasks: StoredTask[] }> {
  const selection = await tasksOfSelection(catalog, selectionId);
  const known = [...new Set(selection.tasks.map((task) => task.repository))].sort();
  // A repository is named by its catalog name or its manifest name: a selection holds one commit of each.
  const names = (repository: string): string[] => [repository, projectName(repository)];
  const unknown = (repositories ?? []).filter((name) => !known.some((repository) => names(repository).includes(name)));
  if (unknown.length > 0)
    throw new RepocodError(
      'usage',
      `--repo ${unknown.join(', ')}: selection ${selection.selectionId} has no task of it (it has tasks of ` +
        `${known.join(', ')})`,
    );
  const tasks = selection.tasks.filter(
    (task) =>
      repositories === undefined ||
      repositories.length === 0 ||
      names(task.repository).some((name) => repositories.includes(name)),
  );
  return { selectionId: selection.selectionId, tasks };
}

interface RepositorySettings extends ValidateStepOptions {
  readonly repeat: number;
  readonly tool: string;
}

/** A task to validate now, with the key its verdict is stored under. */
interface TaskToValidate {
  readonly task: StoredTask;
  readonly taskHash: string;
  readonly validationKey: string;
  /** Its checks run afresh: --fresh, or it was validated before (its stored runs gave the old verdict). */
  readonly fresh: boolean;
}

/** What every task of one repository is validated with. */
interface ValidationContext {
  readonly pool: JobPool;
  readonly prepared: PreparedRepository;
  readonly settings: RepositorySettings;
  readonly timeoutSeconds: number;
  /** Mining's baseline as gold evidence, with each test's longest baseline duration; null when it has none. */
  readonly baseline: GoldEvidence | null;
  readonly durations: ReadonlyMap<string, number>;
}

/** A gold or fit run that timed out is its answer (the task does not fit the limit): only a crash runs again. */
const RERUN_CRASHED: SubmitOptions['rerun'] = ['crashed', 'infra-error'];

async function validateRepository(
  catalog: Catalog,
  prepared: PreparedRepository,
  tasks: readonly StoredTask[],
  settings: RepositorySettings,
): Promise<{ repository: RepositoryValidation; validations: StoredValidation[] }> {
  const repository = catalogName(prepared.entry);
  const environment = prepared.environment;
  const mining = settings.goldRuns === true ? null : await storedBaseline(catalog, prepared, settings.repeat);
  const timeoutSeconds = settings.timeoutSeconds ?? prepared.entry.timeoutSeconds;
  const { current, toValidate } = await tasksToValidate(catalog, prepared, tasks, settings, timeoutSeconds);
  const pool = new JobPool(new CatalogJobStore(catalog, prepared), (settings.executor ?? localExecutor)(prepared));
  const context: ValidationContext = {
    pool,
    prepared,
    settings,
    timeoutSeconds,
    baseline: mining?.evidence ?? null,
    durations: mining?.durations ?? new Map(),
  };
  let done = 0;
  // Every task submits its first jobs at once; the pool answers what the catalog holds and runs the rest together.
  const verdicts = toValidate.map(async (item) => {
    const row = await validateTask(context, item);
    await catalog.saveValidation(row);
    current.push(row);
    done++;
    const problem = row.checks.find((check) => check.status !== 'passed');
    settings.onEvent?.({
      kind: 'validate-task',
      repository,
      instanceId: row.instanceId,
      status: row.status,
      problem: problem === undefined ? null : `${problem.check}: ${problem.detail}`,
      done,
      total: toValidate.length,
    });
  });
  const plan = await pool.plan();
  const goldFromBaseline = toValidate.filter((item) => goldFromMining(context, item.task) !== null).length;
  settings.onEvent?.({
    kind: 'validate-repository',
    repository,
    tasks: tasks.length,
    toValidate: toValidate.length,
    jobs: plan.toRun,
    jobsFromCatalog: plan.fromCatalog,
    goldFromBaseline,
  });
  pool.start();
  await Promise.all(verdicts);
  current.sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  const tally = pool.tally;
  return {
    repository: {
      repository,
      pythonVersion: environment.pythonVersion,
      packagesHash: environment.packagesHash,
      environmentKey: environment.key,
      workers: pool.parallelism,
      repeat: settings.repeat,
      tasks: tasks.length,
      validatedNow: toValidate.length,
      jobsRun: tally.ran,
      jobsFromCatalog: tally.fromCatalog,
      goldFromBaseline,
      baselineKey: context.baseline?.from === 'baseline' ? context.baseline.miningKey : null,
    },
    validations: current,
  };
}

/**
 * The tasks whose stored verdict stands (validated under the same key, not an infrastructure error, not a failure
 * --retry-failed asks about again), and the others, to validate now. The key is what the verdict depends on: the
 * checks' version, the task, the environment, k, the limit and the modes.
 */
async function tasksToValidate(
  catalog: Catalog,
  prepared: PreparedRepository,
  tasks: readonly StoredTask[],
  settings: RepositorySettings,
  timeoutSeconds: number,
): Promise<{ current: StoredValidation[]; toValidate: TaskToValidate[] }> {
  const stored = await catalog.validations({ repository: catalogName(prepared.entry) });
  const earlier = new Map(stored.map((row) => [validationRowKey(row.instanceId, row.validationKey), row]));
  const current: StoredValidation[] = [];
  const toValidate: TaskToValidate[] = [];
  for (const task of tasks) {
    const hash = taskHash(task);
    const validationKey = contentHash(
      JSON.stringify({
        version: VALIDATION_VERSION,
        taskHash: hash,
        environment: prepared.environment.key,
        repeat: settings.repeat,
        timeout: timeoutSeconds,
        narrow: settings.narrow === true,
        goldRuns: settings.goldRuns === true,
      }),
    );
    const validated = earlier.get(validationRowKey(task.instanceId, validationKey));
    const redo =
      validated === undefined ||
      validated.status === 'infra-error' ||
      (settings.retryFailed === true && validated.status === 'failed');
    if (redo) toValidate.push({ task, taskHash: hash, validationKey, fresh: settings.fresh === true || !!validated });
    else current.push(validated);
  }
  return { current, toValidate };
}

/**
 * One task's validation, its checks in the order docs/validation.md gives them. Its first jobs go to the pool
 * together (the pre state collects; the likeliest test file without the body; the gold patches k times unless
 * mining's baseline answers them; the one run that decides the fit); each follow-up waits for the result that
 * asks for it: the collect with the tests removed when the pre state does not collect, then the whole run
 * without the body when the run stopped at the first failure left the question open.
 */
async function validateTask(context: ValidationContext, item: TaskToValidate): Promise<StoredValidation> {
  const { pool, settings, timeoutSeconds } = context;
  const { task, fresh } = item;
  const jobs = validationJobs(task, settings.repeat, timeoutSeconds, settings.narrow === true);
  const baselineGold = goldFromMining(context, task);
  const estimate = baselineGold === null ? null : fitFromDurations(task.failToPass, context.durations, timeoutSeconds);
  const collectsRun = pool.submit(jobs.collects, { fresh });
  const withoutBodyRun = pool.submit(jobs['fails-without-body'], { fresh });
  const goldRuns =
    baselineGold === null ? pool.submit(jobs['passes-with-gold'], { fresh, rerun: RERUN_CRASHED }) : null;
  const fitRun =
    estimate?.kind === 'run' ? pool.submit(fitRunJob(task, timeoutSeconds), { fresh, rerun: RERUN_CRASHED }) : null;
  // A follow-up's stored runs answer it even for a task validated again (only --fresh runs them anew).
  const followUp = { fresh: settings.fresh === true };

  const collects = await collectsRun;
  const testsRemovedCollects = needsTestsRemovedCollect(collects)
    ? await pool.submit({ ...testsRemovedCollectJob(task), timeoutSeconds }, followUp)
    : null;
  const firstWithoutBody = await withoutBodyRun;
  const withGold = goldRuns === null ? null : await goldRuns;
  const gold: GoldEvidence = baselineGold ?? { from: 'runs', job: withGold as JobResult };
  const fitResult = fitRun === null ? null : await fitRun;
  const fit: FitEvidence | undefined =
    estimate === null
      ? undefined
      : estimate.kind === 'exceeds'
        ? { from: 'baseline-durations', fits: false, seconds: estimate.seconds, limitSeconds: estimate.limitSeconds }
        : { from: 'fit-run', job: fitResult as JobResult, limitSeconds: timeoutSeconds };
  const undecided =
    settings.narrow !== true &&
    withoutBodyUndecided({ failToPass: task.failToPass, withoutBody: firstWithoutBody, gold });
  const whole = undecided ? await pool.submit(wholeWithoutBodyJob(task, timeoutSeconds), followUp) : null;

  const verdict = taskVerdict({
    failToPass: task.failToPass,
    collects,
    testsRemovedCollects,
    withoutBody: whole ?? firstWithoutBody,
    gold,
    fit,
    narrow: settings.narrow,
  });
  // The run that stopped early is evidence too (it left the question open): cited beside the whole run.
  const earlierIds = whole === null ? [] : jobRunIds(firstWithoutBody);
  const checks = verdict.checks.map((check) =>
    check.check === 'fails-without-body' ? { ...check, runIds: [...earlierIds, ...check.runIds] } : check,
  );
  const environment = context.prepared.environment;
  return {
    instanceId: task.instanceId,
    taskHash: item.taskHash,
    validationKey: item.validationKey,
    repository: catalogName(context.prepared.entry),
    status: verdict.status,
    checks,
    failToPass: verdict.failToPass,
    flakyTests: verdict.flakyTests.map((test) => test.nodeId),
    droppedTests: verdict.droppedTests,
    toolVersion: settings.tool,
    pythonVersion: environment.pythonVersion,
    packagesHash: environment.packagesHash,
    environmentKey: environment.key,
    runIds: checks.flatMap((check) => check.runIds),
    repeat: settings.repeat,
    seconds: [collects, testsRemovedCollects, firstWithoutBody, whole, withGold, fitResult]
      .flatMap((result) => result?.runs ?? [])
      .reduce((sum, run) => sum + run.durationSeconds, 0),
    validatedAt: new Date(),
    passingWithoutBody: verdict.passingWithoutBody,
    withoutBodyComplete: verdict.withoutBodyComplete,
    goldFrom: verdict.goldFrom,
    goldBaselineKey: verdict.goldBaselineKey,
  };
}

/** Mining's baseline as the task's gold evidence, when it answers the task's gold check; else null. */
function goldFromMining(context: ValidationContext, task: StoredTask): GoldEvidence | null {
  return context.baseline !== null && answersGold(context.baseline, task) ? context.baseline : null;
}

/** The key of a stored validation among a repository's: one task under one validation key. */
function validationRowKey(instanceId: string, validationKey: string): string {
  return `${instanceId}\n${validationKey}`;
}

/**
 * Mining's baseline of this environment, base commit and k (the whole suite run k times at the base
 * commit), as gold evidence; null when mining has not run here (or ran in another environment,
 * e.g. before a rebuild), and the gold patches are then run k times.
 */
async function storedBaseline(
  catalog: Catalog,
  prepared: PreparedRepository,
  repeat: number,
): Promise<{ evidence: GoldEvidence; durations: ReadonlyMap<string, number> } | null> {
  // Mining ran the suite fewer times than validation asks (the manifest's baseline_runs): the gold
  // patches run k times instead.
  if (baselineRunsOf(prepared.entry, repeat) < repeat) return null;
  for (const tracebacks of ['native', 'pytest'] as const) {
    const miningKey = miningKeyOf(prepared, repeat, tracebacks);
    const rows = await catalog.miningBaseline(catalogName(prepared.entry), miningKey);
    if (rows === null || rows.length === 0) continue;
    const outcomes = new Map(rows.map((row) => [row.nodeId, row.outcomes as readonly TestOutcome[]]));
    const runs = baselineRunsOf(prepared.entry, repeat);
    // Each test's longest baseline run: what the fit within the limit is estimated from (gold-fit.ts).
    const durations = new Map(rows.map((row) => [row.nodeId, row.seconds]));
    return { evidence: { from: 'baseline', miningKey, runs, outcomes }, durations };
  }
  return null;
}

/**
 * The baseline answers a task's gold check when its gold state is the base commit (the tasks stage's
 * round trip held) and it reports every FAIL_TO_PASS test; otherwise the gold patches run.
 */
function answersGold(baseline: GoldEvidence, task: StoredTask): boolean {
  if (baseline.from !== 'baseline') return false;
  return task.checks.roundTrip && task.failToPass.every((test) => baseline.outcomes.has(test));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
