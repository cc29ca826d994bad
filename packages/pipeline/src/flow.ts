import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { CONTEXT_LEVELS, isRepocodError } from '@repocod/core';
import type { ConfigInfo } from '@repocod/publish';
import { configsOfCard } from '@repocod/publish';
import type { MiningPhase } from '@repocod/mining';
import type { ExecutorFactory, PreparedRepository } from '@repocod/runner';
import type { SelectionSpec } from '@repocod/tasks';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { runExtract } from './extract-stage.js';
import type { FlowEvent, FlowStage } from './flow-events.js';
import { FLOW_STAGES } from './flow-events.js';
import type { LiteMiningSummary } from './lite-mining.js';
import { liteMining } from './lite-mining.js';
import type { LiteMargin } from './lite-plan.js';
import type { MineStageEvent, MineStageSummary } from './mine-stage.js';
import type { ProgressReport } from './progress-ticker.js';
import { ProgressTicker } from './progress-ticker.js';
import { mineStage } from './mine-stage.js';
import type { HubTarget } from './publish-stage.js';
import { publishStage } from './publish-stage.js';
import { RepositoryLaps } from './repository-laps.js';
import { prepareStage } from './run-tests-stage.js';
import { selectStage } from './select-stage.js';
import { tasksStage } from './tasks-stage.js';
import { validateStage } from './validate-stage.js';
import { countValidations } from './validation-summary.js';

export interface FlowOptions {
  readonly projectRoot: string;
  readonly stateRoot?: string;
  /** The repositories to curate (manifest names). */
  readonly repositories: readonly string[];
  readonly manifest?: string;
  readonly sources?: readonly string[];
  readonly workers?: number;
  /** Where the runner's jobs run (default: the local pool); see @repocod/distributed for a queue. */
  readonly executor?: ExecutorFactory;
  /** Baseline runs when mining, and runs with the gold patches when validating (default 3). */
  readonly repeat?: number;
  readonly spec?: SelectionSpec;
  /**
   * Mine every candidate of every repository. By default the flow mines Lite-first (see lite-mining.ts):
   * only the candidates the selection can pick, with the same picks as mining them all.
   */
  readonly mineAll?: boolean;
  /** Lite-first mining's margin over each quota (default 20%). */
  readonly margin?: LiteMargin;
  readonly narrow?: boolean;
  /** The version the flow releases (default 1.0). */
  readonly version?: string;
  /** The release folder. */
  readonly out: string;
  readonly keep?: readonly string[];
  readonly push?: HubTarget;
  /**
   * The stages to run (default all). The TUI runs every stage but publish, then publish alone once the
   * curator has confirmed; a stage left out is taken as it stands in the catalog (select: the latest
   * selection).
   */
  readonly stages?: readonly FlowStage[];
  readonly onEvent?: (event: FlowEvent) => void;
  /** Checked between items: an aborted flow stops at the next boundary, keeping what is stored. */
  readonly signal?: AbortSignal;
  /** How often a running stage reports where it stands (default DEFAULT_PROGRESS_INTERVAL_MS). */
  readonly progressIntervalMs?: number;
}

export interface FlowResult {
  readonly ok: boolean;
  /** Stages that failed, with the repository and what to do. */
  readonly failures: readonly {
    readonly stage: FlowStage;
    readonly repository: string | null;
    readonly message: string;
  }[];
  readonly release: {
    readonly folder: string;
    readonly version: string;
    readonly rows: number;
    readonly written: boolean;
  } | null;
  readonly durationSeconds: number;
}

/** Stopped on purpose (the curator quit, or a signal): not a failure of any stage. */
export class FlowAborted extends Error {
  constructor() {
    super('the flow was stopped; what finished is in the catalog');
  }
}

/**
 * The whole curation on the catalog, stage by stage, for the TUI and the headless mode alike: per
 * repository the checkout and environment, the functions, the relevant tests and the tasks; then over
 * all of them the Lite selection, the validation of every selected task and a release. Every stage
 * stores its work as it goes and answers what is already stored, so running the flow again carries on
 * where it stopped. A repository whose stage fails is reported and left out of its later stages; the
 * others go on. The stages after the tasks need every repository to have got that far.
 */
export async function runFlow(catalog: Catalog, options: FlowOptions): Promise<FlowResult> {
  const started = performance.now();
  const emit = options.onEvent ?? (() => undefined);
  const failures: { stage: FlowStage; repository: string | null; message: string }[] = [];
  const workers = options.workers ?? 2;
  const repeat = options.repeat ?? 3;
  /** Each repository as the prepare stage made it: the later stages take it from here, not prepare it again. */
  const preparedRepositories = new Map<string, PreparedRepository>();
  const common = {
    projectRoot: options.projectRoot,
    stateRoot: options.stateRoot,
    manifest: options.manifest,
    sources: options.sources,
    executor: options.executor,
    prepared: preparedRepositories,
  };

  // A function, not the property, so that TypeScript does not narrow it across awaits.
  const aborted = (): boolean => options.signal?.aborted === true;
  const chosen = new Set(options.stages ?? FLOW_STAGES);
  emit({
    kind: 'flow-start',
    repositories: [...options.repositories],
    stages: FLOW_STAGES.filter((name) => chosen.has(name)),
  });
  /** A stage's progress: each step at once, and where it stands every interval while it runs (until stop). */
  const stageProgress = (name: FlowStage, repository: string | null): StageProgress & { stop: () => void } => {
    const reportOf = (report: ProgressReport, periodic: boolean): FlowEvent => ({
      kind: 'stage-progress',
      stage: name,
      repository,
      ...report,
      periodic,
    });
    const ticker = new ProgressTicker((report) => {
      if (!aborted()) emit(reportOf(report, true));
    }, options.progressIntervalMs).start();
    return {
      step: (done, total, item) => {
        if (aborted()) return;
        ticker.step(done, total, item);
        // The ticker keeps the last named item: a step without one (a job done) still says what runs.
        emit(reportOf(ticker.report(), false));
      },
      problem: (message) => emit({ kind: 'stage-problem', stage: name, repository, message }),
      stop: () => ticker.stop(),
    };
  };
  const stage = async <T>(
    name: FlowStage,
    repository: string | null,
    body: (progress: StageProgress) => Promise<{ summary: string; value: T }>,
  ): Promise<T | undefined | null> => {
    if (aborted()) throw new FlowAborted();
    if (!chosen.has(name)) return null;
    const stageStarted = performance.now();
    emit({ kind: 'stage-start', stage: name, repository });
    const progress = stageProgress(name, repository);
    try {
      const { summary, value } = await body(progress);
      // Kept for the record of the rebuild (repocod record); validate, which spans repositories, records its laps
      // itself.
      if (repository !== null)
        await recordStageTime(catalog, repository, name, (performance.now() - stageStarted) / 1000);
      emit({
        kind: 'stage-done',
        stage: name,
        repository,
        summary,
        seconds: (performance.now() - stageStarted) / 1000,
      });
      return value;
    } catch (error) {
      if (error instanceof FlowAborted || aborted()) throw new FlowAborted();
      const message = failureMessage(error);
      failures.push({ stage: name, repository, message });
      emit({
        kind: 'stage-failed',
        stage: name,
        repository,
        message,
        seconds: (performance.now() - stageStarted) / 1000,
      });
      return undefined;
    } finally {
      progress.stop();
    }
  };

  const mineAll = options.mineAll === true;
  const spec = options.spec ?? REPOCOD_LITE_SPEC;
  /** The repositories prepared and extracted whose mining waits for Lite-first mining over all of them. */
  const extractedRepositories = new Set<string>();

  const buildTasks = (repository: string): Promise<unknown> =>
    stage('tasks', repository, async (progress) => {
      const value = await tasksStage(catalog, {
        ...common,
        repository,
        workers,
        repeat,
        onEvent: (event) => {
          if (event.kind === 'tasks-built')
            progress.step(0, event.tasks, `${event.tasks} tasks built; checking their patches`);
          if (event.kind === 'task-checked') {
            progress.step(event.done, event.total, event.instanceId);
            if (!event.passed)
              progress.problem(`${event.instanceId}: its patches fail a check (repocod show ${event.instanceId})`);
          }
        },
      });
      const levels = CONTEXT_LEVELS.map((level) => `${level} ${value.byLevel[level] ?? 0}`).join(', ');
      return {
        value,
        summary: `${value.tasks.length} tasks (${levels}); ${value.tasks.length - value.failedChecks.length} pass their checks`,
      };
    });

  /**
   * Lite-first mining over every extracted repository, then their tasks; again while the tasks' checks
   * leave a level short of its quota plus margin (the second pass then mines the next candidates).
   * Each repository's `mine` row runs from its first round to the end of the pass. Returns the
   * repositories that have their tasks.
   */
  const mineLiteFirst = async (): Promise<string[]> => {
    const failed = new Set<string>();
    for (let pass = 1; ; pass++) {
      const repositories = [...extractedRepositories].filter((repository) => !failed.has(repository));
      if (repositories.length === 0) return [];
      type MineRow = { at: number; progress: StageProgress & { stop: () => void }; minedNow: number };
      const started = new Map<string, MineRow>();
      const begin = (repository: string): MineRow => {
        const known = started.get(repository);
        if (known !== undefined) return known;
        emit({ kind: 'stage-start', stage: 'mine', repository });
        const row = { at: performance.now(), progress: stageProgress('mine', repository), minedNow: 0 };
        started.set(repository, row);
        return row;
      };
      const fail = (repository: string, error: unknown): void => {
        if (error instanceof FlowAborted || aborted()) throw new FlowAborted();
        const row = begin(repository);
        const message = failureMessage(error);
        failed.add(repository);
        failures.push({ stage: 'mine', repository, message });
        emit({
          kind: 'stage-failed',
          stage: 'mine',
          repository,
          message,
          seconds: (performance.now() - row.at) / 1000,
        });
        row.progress.stop();
      };
      if (pass === 1) for (const repository of repositories) begin(repository);
      let summary: LiteMiningSummary;
      try {
        summary = await liteMining(catalog, {
          ...common,
          repositories,
          spec,
          margin: options.margin,
          mode: 'fast',
          workers,
          repeat,
          mineRound: async (request): Promise<MineStageSummary | null> => {
            if (aborted()) throw new FlowAborted();
            const row = begin(request.repository);
            row.progress.step(0, request.functions, `round ${request.round}: ${request.functions} function(s)`);
            try {
              const value = await mineStage(catalog, {
                ...common,
                repository: request.repository,
                workers,
                repeat,
                mode: 'fast',
                ...request.mineOptions,
                onEvent: mineProgress(row.progress),
              });
              row.minedNow += request.functions;
              return value;
            } catch (error) {
              fail(request.repository, error);
              return null;
            }
          },
        });
      } catch (error) {
        // Before any round (the ranking: a spec Lite-first cannot use): every repository's mining failed.
        for (const repository of repositories) if (!failed.has(repository)) fail(repository, error);
        return [];
      }
      const levels = summary.plan.levels.map((level) => `${level.level} ${level.found}/${level.target}`).join(', ');
      const closing = summary.repositories.filter(
        ({ repository }) => !failed.has(repository) && (pass === 1 || started.has(repository)),
      );
      for (const [index, repository] of closing.entries()) {
        const row = begin(repository.repository);
        // Levels short of candidates concern every repository: said once, on the first row.
        for (const level of index === 0 ? summary.plan.levels : []) {
          if (level.state === 'exhausted')
            row.progress.problem(
              `${level.level}: every candidate mined, ${level.found} task(s) for a target of ${level.target} (quota ${level.quota})`,
            );
        }
        const text =
          `Lite-first: ${repository.mined} of ${repository.ranked} candidates mined (${row.minedNow} now), ${repository.withTests} with relevant tests; ` +
          `over all: ${summary.mined} of ${summary.candidates} in ${summary.rounds} round(s), found/target ${levels}`;
        const seconds = (performance.now() - row.at) / 1000;
        await recordStageTime(catalog, repository.repository, 'mine', seconds);
        emit({ kind: 'stage-done', stage: 'mine', repository: repository.repository, summary: text, seconds });
        row.progress.stop();
      }
      // The tasks of the repositories mined in this pass (of all of them in the first): their checks may send the
      // planner further.
      const toBuild = [...started.keys()].filter(
        (repository) => !failed.has(repository) && (pass === 1 || (started.get(repository)?.minedNow ?? 0) > 0),
      );
      for (const repository of toBuild) if ((await buildTasks(repository)) === undefined) failed.add(repository);
      const left = repositories.filter((repository) => !failed.has(repository));
      if (toBuild.length === 0 || !(await liteNeedsMore(left))) return left;
    }
  };

  /** Whether the planner, now that the tasks' checks are known, wants more candidates mined. */
  const liteNeedsMore = async (repositories: readonly string[]): Promise<boolean> => {
    if (repositories.length === 0) return false;
    const probe = await liteMining(catalog, {
      ...common,
      repositories,
      spec,
      margin: options.margin,
      mode: 'fast',
      workers,
      repeat,
      mineRound: async () => null,
    });
    return probe.rounds > 0;
  };

  try {
    const ready: string[] = [];
    for (const repository of options.repositories) {
      const prepared = await stage('prepare', repository, async (progress) => {
        const value = await prepareStage({
          ...common,
          repository,
          workers,
          onLog: (line) => progress.step(0, 1, line),
        });
        const env = value.environment;
        return {
          value,
          summary: `${value.checkout.baseCommit.slice(0, 12)}, python ${env.pythonVersion} (${env.installer}), ${value.worktrees.length} worktree(s)`,
        };
      });
      if (prepared === undefined) continue;
      if (prepared !== null) preparedRepositories.set(repository, prepared);
      if (prepared === null) {
        // Not run: the later per-repository stages need the checkout, so they are not run either.
        if (['extract', 'mine', 'tasks'].some((name) => chosen.has(name as FlowStage)))
          throw new Error('the flow runs extract, mine and tasks only with prepare');
        ready.push(repository);
        continue;
      }
      const extracted = await stage('extract', repository, async (progress) => {
        const value = await runExtract(catalog, {
          root: prepared.checkout.path,
          repository,
          onProgress: (event) => {
            if (event.kind === 'extract-file') progress.step(event.done, event.total, event.file);
            if (event.kind === 'extract-issue') progress.problem(`${event.issue.file}: ${event.issue.message}`);
          },
        });
        return {
          value,
          summary: `${value.files} files (${value.extractedFiles} parsed, ${value.unchangedFiles} unchanged), ${value.functions} functions, ${value.candidates} candidates`,
        };
      });
      if (extracted === undefined) continue;
      if (!mineAll && prepared !== null) {
        extractedRepositories.add(repository);
        continue;
      }
      const mined = await stage('mine', repository, async (progress) => {
        let total = 0;
        const value = await mineStage(catalog, {
          ...common,
          repository,
          workers,
          repeat,
          mode: 'fast',
          onEvent: mineProgress(progress, (targets) => (total = targets)),
        });
        const withTests = value.functions.filter((fn) => fn.status === 'tests').length;
        const fromCatalog = value.resumed;
        return {
          value,
          summary: `${total} candidates: ${withTests} with relevant tests (${value.functions.length - value.resumed} mined now, ${fromCatalog} from the catalog)`,
        };
      });
      if (mined === undefined) continue;
      if ((await buildTasks(repository)) !== undefined) ready.push(repository);
    }
    if (!mineAll && extractedRepositories.size > 0) ready.push(...(await mineLiteFirst()));
    if (ready.length < options.repositories.length) return finish(false);

    const selected = await stage('select', null, async (progress) => {
      const value = await selectStage(catalog, options.spec ?? REPOCOD_LITE_SPEC);
      progress.step(value.picks.length, value.picks.length, value.selectionId);
      for (const short of value.short)
        progress.problem(
          `${short.level}: ${short.available} task(s), fewer than its quota of ${short.quota}; all of them taken`,
        );
      const levels = value.levels.map((level) => `${level.level} ${level.picked}`).join(', ');
      return { value, summary: `selection ${value.selectionId}: ${value.picks.length} tasks (${levels})` };
    });
    if (selected === undefined) return finish(false);
    const selectionId = selected?.selectionId;

    const validated = await stage('validate', null, async (progress) => {
      const laps = new RepositoryLaps(performance.now());
      const value = await validateStage(catalog, {
        ...common,
        selectionId,
        workers,
        repeat,
        narrow: options.narrow,
        onEvent: (event) => {
          laps.heard(event.repository, performance.now());
          if (event.kind === 'validate-repository')
            progress.step(
              0,
              event.toValidate,
              `${event.repository}: ${event.toValidate} of ${event.tasks} task(s) to validate`,
            );
          if (event.kind === 'validate-task') {
            progress.step(event.done, event.total, `${event.instanceId} ${event.status}`);
            if (event.status !== 'passed')
              progress.problem(
                `${event.instanceId} ${event.status === 'failed' ? 'failed' : 'could not be judged'}: ${event.problem ?? 'no check named'}`,
              );
          }
        },
      });
      for (const [repository, seconds] of laps.laps()) await recordStageTime(catalog, repository, 'validate', seconds);
      const counts = countValidations(value.validations);
      const summary = `${counts.tasks} task(s): ${counts.byStatus.passed} passed, ${counts.byStatus.failed} failed, ${counts.byStatus['infra-error']} not judged; ${counts.flakyTests} flaky test(s) removed`;
      if (counts.byStatus['infra-error'] > 0) {
        throw new FlowStageError(
          `${summary}. The infrastructure errors are retried by running the flow again (or repocod validate); repocod show ID gives each one's log`,
        );
      }
      return { value, summary };
    });
    if (validated === undefined) return finish(false);

    const version = options.version ?? '1.0';
    const release = await stage('publish', null, async (progress) => {
      const existing = releasedVersions(options.out);
      const earlier = existing.find((config) => config.version === version);
      if (earlier !== undefined && options.push === undefined) {
        progress.step(1, 1, `${version} is already in ${options.out}`);
        progress.problem(
          `version ${version} is already released in ${options.out} (versions are never rewritten); give another version to release the catalog as it is now`,
        );
        return {
          value: { folder: options.out, version, rows: earlier.numExamples, written: false },
          summary: `version ${version} already in ${options.out} (${earlier.numExamples} tasks): left as it is`,
        };
      }
      const value = await publishStage(catalog, {
        version: earlier === undefined ? version : undefined,
        out: options.out,
        selectionId,
        keep: options.keep,
        push: options.push,
        stateRoot: options.stateRoot,
      });
      progress.step(1, 1, value.writes.map((write) => write.path).join(', '));
      const rows = value.content?.rows.length ?? earlier?.numExamples ?? 0;
      const pushed =
        value.pushed === null
          ? ''
          : `; pushed to ${options.push?.repo} (commit ${value.pushed.commitOid.slice(0, 12)})`;
      const written =
        value.version === null
          ? `version ${version} already in ${options.out}`
          : `version ${version}: ${rows} task(s) in ${options.out}`;
      return {
        value: { folder: options.out, version, rows, written: value.version !== null },
        summary: `${written}${pushed}`,
      };
    });
    return finish(release !== undefined, release ?? null);
  } catch (error) {
    if (error instanceof FlowAborted) {
      emit({ kind: 'flow-stopped', seconds: (performance.now() - started) / 1000 });
    }
    throw error;
  }

  function finish(ok: boolean, release: FlowResult['release'] = null): FlowResult {
    const result = {
      ok: ok && failures.length === 0,
      failures,
      release,
      durationSeconds: (performance.now() - started) / 1000,
    };
    emit({ kind: 'flow-done', ok: result.ok, failures: failures.length, release, seconds: result.durationSeconds });
    return result;
  }
}

/** What a mining phase's jobs are, for progress lines: `baseline: pytest jobs (whole-suite shards) …`. */
export function miningPhaseItem(event: {
  readonly phase: MiningPhase;
  readonly jobs: number;
  readonly resumed: number;
  readonly functions: number;
}): string {
  const what = {
    baseline: 'whole-suite shards',
    mutation: 'mutation runs',
    fallback: 'one process per mutation',
    confirm: 'confirmation runs',
  }[event.phase];
  const resumed = event.resumed > 0 ? `, ${event.resumed} done by an earlier run` : '';
  const functions = event.functions > 0 ? ` for ${event.functions} function(s)` : '';
  return `${event.phase}: pytest jobs (${what}${functions}${resumed})`;
}

/** A stage's own errors say what to do; anything else is a bug, whose stack is what helps. */
function failureMessage(error: unknown): string {
  return isRepocodError(error) || error instanceof FlowStageError
    ? error.message
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
}

/** Mining's events as a stage's progress: job-level progress in every phase (its jobs are what the pool works through). */
function mineProgress(progress: StageProgress, onTargets?: (targets: number) => void): (event: MineStageEvent) => void {
  return (event) => {
    if (event.kind === 'extracted') onTargets?.(event.targets);
    if (event.kind === 'phase-start') progress.step(0, event.jobs, miningPhaseItem(event));
    if (event.kind === 'job-done') progress.step(event.done, event.total, '');
    if (event.kind === 'shard-incomplete') {
      progress.problem(
        `a baseline shard (${event.shard}) ended with ${event.status} (limit ${event.limitSeconds} s): its ${event.reported} reported test(s) count, the others are left out of the baseline`,
      );
    }
    if (event.kind === 'function-done' && event.result.status === 'error')
      progress.problem(`${event.result.qualname}: ${event.result.reason ?? 'mining failed'}`);
  };
}

/** A stage's wall time for the repository, replacing the one recorded when it last finished. */
async function recordStageTime(catalog: Catalog, repository: string, stage: FlowStage, seconds: number): Promise<void> {
  await catalog.recordStageTime({ repository, stage, seconds, finishedAt: new Date() });
}

/** What a stage body reports as it goes. */
interface StageProgress {
  readonly step: (done: number, total: number, item: string) => void;
  readonly problem: (message: string) => void;
}

/** A stage that finished its work but whose outcome stops the flow (validation that could not judge). */
class FlowStageError extends Error {}

/** The versions a release folder already holds, with their sizes (none when it has no card yet). */
export function releasedVersions(folder: string): ConfigInfo[] {
  const card = join(folder, 'README.md');
  if (!existsSync(card)) return [];
  return configsOfCard(readFileSync(card, 'utf8'), card);
}
