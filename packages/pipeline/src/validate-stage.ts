import type { Catalog, StoredTask, StoredValidation } from '@repocod/catalog';
import { contentHash, RepocodError, resolveWorkers } from '@repocod/core';
import type { JobResult, PreparedRepository, RunJob, TestOutcome } from '@repocod/runner';
import { baselineRunsOf, jobHash, jobRunIds, localExecutor, validateRunsOf } from '@repocod/runner';
import { recordJobResult, storedJobResult } from './job-records.js';
import { miningKeyOf } from './mine-stage.js';
import { tasksOfSelection } from './selection-tasks.js';
import type { PrepareStageOptions } from './prepare-stage.js';
import { prepareStage } from './prepare-stage.js';
import { toolVersion } from './tool-version.js';
import type { ValidationCheck } from '@repocod/validate';
import {
  fitFromDurations,
  fitRunJob,
  taskHash,
  testsRemovedCollectJob,
  VALIDATION_CHECKS,
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

export interface ValidateStageOptions extends Omit<PrepareStageOptions, 'repository'> {
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
  readonly onEvent?: (event: ValidateStageEvent) => void;
}

export type ValidateStageEvent =
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
 * `repocod validate`: every task of a selection checked with the shared runner: the pre state
 * collects; with the tests restored, a FAIL_TO_PASS test fails without the body (every one with
 * --narrow, which drops the others); with the gold code, every one passes in each of k runs (tests
 * that flip are removed and recorded), answered by mining's k baseline runs of the same environment
 * when there are some (the gold state is the base commit byte for byte). Each task's
 * verdict is stored as soon as its three checks are in, with its provenance (tool, Python, packages,
 * run ids), so a killed run resumes with the tasks that have none; tasks of one repository run in
 * parallel on its worktree pool.
 */
export async function validateStage(catalog: Catalog, options: ValidateStageOptions): Promise<ValidateSummary> {
  const started = performance.now();
  const { selectionId, tasks } = await selectedTasks(catalog, options.selectionId, options.repositories);
  const tool = toolVersion(options.projectRoot);
  const repositories: RepositoryValidation[] = [];
  const validations: StoredValidation[] = [];
  for (const [repository, ofRepository] of groupBy(tasks, (task) => task.repository)) {
    const prepared = await prepareStage({ ...options, repository, workers: resolveWorkers(options.workers) });
    const repeat = validateRunsOf(prepared.entry, options.repeat);
    const result = await validateRepository(catalog, prepared, ofRepository, { ...options, repeat, tool });
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
  const unknown = (repositories ?? []).filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new RepocodError(
      'usage',
      `--repo ${unknown.join(', ')}: selection ${selection.selectionId} has no task of it (it has tasks of \
${known.join(', ')})`,
    );
  const tasks = selection.tasks.filter(
    (task) => repositories === undefined || repositories.length === 0 || repositories.includes(task.repository),
  );
  return { selectionId: selection.selectionId, tasks };
}

interface RepositorySettings extends ValidateStageOptions {
  readonly repeat: number;
  readonly tool: string;
}

/** One task's jobs, filled in as their results come (from the catalog or from the pool). */
interface PendingTask {
  readonly task: StoredTask;
  readonly taskHash: string;
  readonly validationKey: string;
  readonly jobs: Record<ValidationCheck, RunJob>;
  /** The checks answered by jobs: all three, or two when the baseline answers the gold check. */
  readonly checks: readonly ValidationCheck[];
  readonly baseline: GoldEvidence | null;
  readonly results: Partial<Record<ValidationCheck, JobResult>>;
  /**
   * With baseline evidence, how the fit within the limit is known: the baseline's durations, or the one run of the
   * gold state that decides when they do not (gold-fit.ts).
   */
  readonly fit: FitEvidence | { readonly job: RunJob; result?: JobResult } | null;
  /** The whole run without the body, when the run stopped at the first failure left the question open. */
  whole?: { readonly job: RunJob; result?: JobResult };
  /** base + pre.test collected, when the pre state did not collect (see collectsCheck). */
  testsRemoved?: { readonly job: RunJob; result?: JobResult };
}

async function validateRepository(
  catalog: Catalog,
  prepared: PreparedRepository,
  tasks: readonly StoredTask[],
  settings: RepositorySettings,
): Promise<{ repository: RepositoryValidation; validations: StoredValidation[] }> {
  const repository = prepared.entry.name;
  const environment = prepared.environment;
  const earlier = new Map(
    (await catalog.validations({ repository })).map((row) => [`${row.instanceId}\n${row.validationKey}`, row]),
  );
  const mining = settings.goldRuns === true ? null : await storedBaseline(catalog, prepared, settings.repeat);
  const baseline = mining?.evidence ?? null;
  const current: StoredValidation[] = [];
  const pending: PendingTask[] = [];
  const timeoutSeconds = settings.timeoutSeconds ?? prepared.entry.timeoutSeconds;
  for (const task of tasks) {
    const hash = taskHash(task);
    const validationKey = contentHash(
      JSON.stringify({
        version: VALIDATION_VERSION,
        taskHash: hash,
        environment: environment.key,
        repeat: settings.repeat,
        timeout: timeoutSeconds,
        narrow: settings.narrow === true,
        goldRuns: settings.goldRuns === true,
      }),
    );
    const validated = earlier.get(`${task.instanceId}\n${validationKey}`);
    const redo =
      validated === undefined ||
      validated.status === 'infra-error' ||
      (settings.retryFailed === true && validated.status === 'failed');
    if (!redo) {
      current.push(validated);
      continue;
    }
    // A task validated before is validated afresh: its stored runs are what gave the old verdict.
    const fresh = settings.fresh === true || validated !== undefined;
    const gold = baseline !== null && answersGold(baseline, task) ? baseline : null;
    const estimate =
      gold === null ? null : fitFromDurations(task.failToPass, mining?.durations ?? new Map(), timeoutSeconds);
    const checks = VALIDATION_CHECKS.filter((check) => check !== 'passes-with-gold' || gold === null);
    const entry: PendingTask = {
      task,
      taskHash: hash,
      validationKey,
      jobs: validationJobs(task, settings.repeat, timeoutSeconds, settings.narrow === true),
      checks,
      baseline: gold,
      fit:
        estimate === null
          ? null
          : estimate.kind === 'run'
            ? { job: fitRunJob(task, timeoutSeconds) }
            : {
                from: 'baseline-durations',
                fits: false,
                seconds: estimate.seconds,
                limitSeconds: estimate.limitSeconds,
              },
      results: {},
    };
    if (!fresh) {
      // A gold run's timeout answers the gold check too: the task does not fit the limit.
      for (const check of checks)
        entry.results[check] = await reusableResult(catalog, prepared, entry.jobs[check], {
          timeoutAnswers: check === 'passes-with-gold',
        });
      const run = fitRun(entry);
      if (run !== null) run.result = await reusableResult(catalog, prepared, run.job, { timeoutAnswers: true });
    }
    pending.push(entry);
  }
  const queue = pending.flatMap((entry) => [
    ...entry.checks
      .filter((check) => entry.results[check] === undefined)
      .map((check) => ({ entry, job: entry.jobs[check], check: check as QueuedCheck })),
    ...(fitRun(entry) !== null && fitRun(entry)?.result === undefined
      ? [{ entry, job: (fitRun(entry) as { job: RunJob }).job, check: 'fit' as QueuedCheck }]
      : []),
  ]);
  const asked = pending.reduce((sum, entry) => sum + entry.checks.length + (fitRun(entry) === null ? 0 : 1), 0);
  const jobsFromCatalog = asked - queue.length;
  const goldFromBaseline = pending.filter((entry) => entry.baseline !== null).length;
  settings.onEvent?.({
    kind: 'validate-repository',
    repository,
    tasks: tasks.length,
    toValidate: pending.length,
    jobs: queue.length,
    jobsFromCatalog,
    goldFromBaseline,
  });

  const executor = (settings.executor ?? localExecutor)(prepared);
  let done = 0;
  let followUpsFromCatalog = 0;
  let followUpsRun = 0;
  const followUps: typeof queue = [];
  /** A follow-up job's stored result, or the job queued for the next round (its result then comes later). */
  const followUp = async (
    entry: PendingTask,
    check: 'whole' | 'tests-removed',
    job: RunJob,
  ): Promise<{ job: RunJob; result?: JobResult }> => {
    const stored = settings.fresh === true ? undefined : await reusableResult(catalog, prepared, job);
    if (stored === undefined) followUps.push({ entry, job, check });
    else followUpsFromCatalog++;
    return { job, result: stored };
  };
  const finish = async (entry: PendingTask): Promise<void> => {
    const { collects, 'fails-without-body': firstWithoutBody, 'passes-with-gold': withGold } = entry.results;
    if (collects === undefined || firstWithoutBody === undefined) return;
    const gold: GoldEvidence | undefined =
      entry.baseline ?? (withGold === undefined ? undefined : { from: 'runs', job: withGold });
    if (gold === undefined) return;
    const run = fitRun(entry);
    if (run !== null && run.result === undefined) return;
    const fit: FitEvidence | undefined =
      entry.fit === null
        ? undefined
        : run === null
          ? (entry.fit as FitEvidence)
          : { from: 'fit-run', job: run.result as JobResult, limitSeconds: timeoutSeconds };
    // Follow-ups, one after the other: is a pre state that does not collect the body's doing? Then,
    // did a run stopped at the first failure leave the question open (the whole run decides)?
    if (entry.testsRemoved === undefined && needsTestsRemovedCollect(collects)) {
      entry.testsRemoved = await followUp(entry, 'tests-removed', {
        ...testsRemovedCollectJob(entry.task),
        timeoutSeconds,
      });
    }
    if (entry.testsRemoved !== undefined && entry.testsRemoved.result === undefined) return;
    const undecided = withoutBodyUndecided({ failToPass: entry.task.failToPass, withoutBody: firstWithoutBody, gold });
    if (entry.whole === undefined && settings.narrow !== true && undecided) {
      entry.whole = await followUp(entry, 'whole', wholeWithoutBodyJob(entry.task, timeoutSeconds));
    }
    if (entry.whole !== undefined && entry.whole.result === undefined) return;
    const withoutBody = entry.whole?.result ?? firstWithoutBody;
    const testsRemovedCollects = entry.testsRemoved?.result ?? null;
    const { failToPass } = entry.task;
    const verdict = taskVerdict({
      failToPass,
      collects,
      testsRemovedCollects,
      withoutBody,
      gold,
      fit,
      narrow: settings.narrow,
    });
    // The run that stopped early is evidence too (it left the question open): cited beside the whole run.
    const earlierIds = entry.whole === undefined ? [] : jobRunIds(firstWithoutBody);
    const checks = verdict.checks.map((check) =>
      check.check === 'fails-without-body' ? { ...check, runIds: [...earlierIds, ...check.runIds] } : check,
    );
    const row: StoredValidation = {
      instanceId: entry.task.instanceId,
      taskHash: entry.taskHash,
      validationKey: entry.validationKey,
      repository,
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
      seconds: [
        collects,
        testsRemovedCollects ?? undefined,
        firstWithoutBody,
        entry.whole?.result,
        withGold,
        run?.result,
      ]
        .flatMap((result) => result?.runs ?? [])
        .reduce((sum, run) => sum + run.durationSeconds, 0),
      validatedAt: new Date(),
      passingWithoutBody: verdict.passingWithoutBody,
      withoutBodyComplete: verdict.withoutBodyComplete,
      goldFrom: verdict.goldFrom,
      goldBaselineKey: verdict.goldBaselineKey,
    };
    await catalog.saveValidation(row);
    current.push(row);
    done++;
    const problem = verdict.checks.find((check) => check.status !== 'passed');
    settings.onEvent?.({
      kind: 'validate-task',
      repository,
      instanceId: row.instanceId,
      status: row.status,
      problem: problem === undefined ? null : `${problem.check}: ${problem.detail}`,
      done,
      total: pending.length,
    });
  };
  const runAll = async (items: typeof queue): Promise<void> => {
    // The jobs go task by task, so verdicts (and their rows) come steadily rather than all at the end.
    for await (const { index, result } of executor.run(items.map((item) => item.job))) {
      const item = items[index] as (typeof items)[number];
      await recordJobResult(catalog, prepared, result);
      if (item.check === 'whole') (item.entry.whole as { result?: JobResult }).result = result;
      else if (item.check === 'tests-removed') (item.entry.testsRemoved as { result?: JobResult }).result = result;
      else if (item.check === 'fit') (fitRun(item.entry) as { result?: JobResult }).result = result;
      else item.entry.results[item.check] = result;
      await finish(item.entry);
    }
  };
  for (const entry of pending) await finish(entry);
  await runAll(queue);
  // Pre states that did not collect (is it the body's?), then runs that stopped at the first failure
  // without seeing a stable test fail (the whole runs decide): a task may need one, then the other.
  while (followUps.length > 0) {
    const round = followUps.splice(0);
    followUpsRun += round.length;
    await runAll(round);
  }
  current.sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  return {
    repository: {
      repository,
      pythonVersion: environment.pythonVersion,
      packagesHash: environment.packagesHash,
      environmentKey: environment.key,
      workers: executor.parallelism,
      repeat: settings.repeat,
      tasks: tasks.length,
      validatedNow: pending.length,
      jobsRun: queue.length + followUpsRun,
      jobsFromCatalog: jobsFromCatalog + followUpsFromCatalog,
      goldFromBaseline,
      baselineKey: baseline?.from === 'baseline' ? baseline.miningKey : null,
    },
    validations: current,
  };
}

/** The jobs of a task's validation besides its checks: follow-ups, and the run that decides its fit. */
type QueuedCheck = ValidationCheck | 'whole' | 'tests-removed' | 'fit';

/** The task's fit run, when the baseline's durations leave its fit open. */
function fitRun(entry: PendingTask): { readonly job: RunJob; result?: JobResult } | null {
  return entry.fit !== null && !('from' in entry.fit) ? entry.fit : null;
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
    const rows = await catalog.miningBaseline(prepared.entry.name, miningKey);
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

/**
 * A job's stored runs, unless there are none (or too few) or one of them could not finish. A fit run's timeout is
 * its answer (the task does not fit the limit), so it is reused.
 */
async function reusableResult(
  catalog: Catalog,
  prepared: PreparedRepository,
  job: RunJob,
  options: { readonly timeoutAnswers?: boolean } = {},
): Promise<JobResult | undefined> {
  const result = storedJobResult(job, prepared, await catalog.runsForJob(jobHash(job, prepared)));
  const unfinished = (status: string): boolean =>
    (status === 'timeout' && options.timeoutAnswers !== true) || status === 'crashed' || status === 'infra-error';
  if (result === null || result.runs.some((run) => unfinished(run.status))) return undefined;
  return result;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
