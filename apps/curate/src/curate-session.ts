import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Catalog,
  EvaluateEvent,
  EvaluateSummary,
  FlowEvent,
  FlowResult,
  FlowStage,
  FlowStatus,
  HubTarget,
  LiteMargin,
  PublishSummary,
  ReleaseDatings,
  SelectionSpec,
  TaskDetail,
  TaskOverview,
  ValidationOverview,
} from '@repocod/pipeline';
import {
  runEvaluateCommand,
  flowStatus,
  modelFolder,
  publishStep,
  runFlow,
  runLog,
  taskDetail,
  taskOverviews,
  validationOverview,
} from '@repocod/pipeline';
import type { CandidateModeName } from '@repocod/core';
import { DEFAULT_RELEASE_VERSION } from '@repocod/core';
import type { ExecutorFactory } from '@repocod/runner';

/** What a curation session is set to: the command line's options, with the embedded defaults filled in. */
export interface CurateSettings {
  readonly projectRoot: string;
  readonly stateRoot: string;
  readonly catalogPath: string;
  readonly manifest?: string;
  readonly sources: readonly string[];
  /** `--at NAME=REF`: repositories built at another commit than the manifest's (none when absent). */
  readonly ats?: readonly string[];
  readonly workers: number;
  /** --repeat as given (the flow resolves it: see FlowOptions.repeat). */
  readonly repeat: number | undefined;
  readonly narrow: boolean;
  /** The version to release; null lets the TUI propose the next one after the folder's latest. */
  readonly version: string | null;
  readonly out: string;
  readonly keep: readonly string[];
  readonly push: HubTarget | null;
  /** Where the runner's jobs run (default: the local pool); --executor. */
  readonly executor?: ExecutorFactory;
  /** How often a running stage reports where it stands (default 30 s). */
  readonly progressIntervalMs?: number;
  /** The selection spec (--spec; default REPOCOD-Lite's). */
  readonly spec?: SelectionSpec;
  /** Mine every candidate (--all) instead of Lite-first. */
  readonly mineAll?: boolean;
  /** Lite-first mining's margin (--margin; default 20% of each quota). */
  readonly margin?: LiteMargin;
  /** Which candidates mine and tasks take (--candidates; default docstring, REPOCOD's reading). */
  readonly candidates?: CandidateModeName;
  /** Only the candidates whose body changed after this cutoff (--changed-since, UTC). */
  readonly changedSince?: string;
  /** The repositories without history dated by release diff (--dated-against). */
  readonly datedAgainst?: ReleaseDatings;
  /** Where the evaluate screen's runs write their logs and reports (default out/evaluations in the project). */
  readonly evaluations?: string;
}

/**
 * The TUI's one door to the pipeline: reads what the screens show and runs the flow. It holds the
 * catalog; the screens hold none of it, so they can be rendered (and tested) from plain data.
 */
export class CurateSession {
  private flowsInFlight = 0;
  /** Reports a line as a problem of the stage running now (set while a flow runs). */
  private stageNotice: ((line: string) => void) | undefined;

  constructor(
    readonly catalog: Catalog,
    readonly settings: CurateSettings,
  ) {}

  status(): Promise<FlowStatus> {
    const { projectRoot, stateRoot, manifest, sources, ats, out } = this.settings;
    return flowStatus(this.catalog, { projectRoot, stateRoot, manifest, sources, ats, out });
  }

  tasks(): Promise<TaskOverview[]> {
    return taskOverviews(this.catalog);
  }

  task(instanceId: string): Promise<TaskDetail | null> {
    return taskDetail(this.catalog, instanceId);
  }

  validation(): Promise<ValidationOverview> {
    return validationOverview(this.catalog);
  }

  log(runId: string): Promise<string | null> {
    return runLog(this.catalog, runId);
  }

  /**
   * Evaluates a predictions file (or the gold patches, null) on the release this session publishes
   * (the folder's default config), as `repocod evaluate` does; outcomes go to the catalog, logs to
   * out/evaluations in the project.
   */
  evaluate(predictions: string | null, onEvent: (event: EvaluateEvent) => void): Promise<EvaluateSummary> {
    const { projectRoot, stateRoot, manifest, sources, ats, workers, executor, out } = this.settings;
    return runEvaluateCommand(this.catalog, {
      projectRoot,
      stateRoot,
      manifest,
      sources,
      ats,
      workers,
      executor,
      release: out,
      gold: predictions === null,
      predictions: predictions ?? undefined,
      outDir: this.evaluationsFolder,
      onEvent,
    });
  }

  /** A prediction's log as the evaluate screen shows it: its results, then pytest's output. */
  evaluationLog(runId: string, model: string, instanceId: string): string {
    const folder = join(this.evaluationsFolder, runId, modelFolder(model), instanceId);
    const read = (name: string): string => {
      const file = join(folder, name);
      return existsSync(file) ? readFileSync(file, 'utf8') : `(no ${name} in ${folder})`;
    };
    return `${read('results.json')}\n${read('test_output.txt')}`;
  }

  private get evaluationsFolder(): string {
    return this.settings.evaluations ?? join(this.settings.projectRoot, 'out', 'evaluations');
  }

  /** What publishing `version` would write and upload, with nothing written (publish's dry run). */
  previewPublish(version: string): Promise<PublishSummary> {
    const { out, keep, push, stateRoot } = this.settings;
    return publishStep(this.catalog, { version, out, keep, push: push ?? undefined, dryRun: true, stateRoot });
  }

  /** A flow started by run() has not ended yet (its stage may be mid-way through pytest runs). */
  get flowRunning(): boolean {
    return this.flowsInFlight > 0;
  }

  async run(
    repositories: readonly string[],
    stages: readonly FlowStage[],
    onEvent: (event: FlowEvent) => void,
    signal?: AbortSignal,
    version?: string,
  ): Promise<FlowResult> {
    this.flowsInFlight++;
    const tracked = (event: FlowEvent): void => {
      if (event.kind === 'stage-start')
        this.stageNotice = (message) =>
          onEvent({ kind: 'stage-problem', stage: event.stage, repository: event.repository, message });
      onEvent(event);
    };
    try {
      return await this.runStages(repositories, stages, tracked, signal, version);
    } finally {
      this.flowsInFlight--;
      this.stageNotice = undefined;
    }
  }

  /**
   * Something the user should know that comes from outside the stages (the distributed executor waiting
   * for workers): a problem of the stage running now, so the TUI and the headless printer show it where
   * they show the stage's other problems. Dropped when no flow runs (nothing is waiting then).
   */
  notice(line: string): void {
    this.stageNotice?.(line);
  }

  private runStages(
    repositories: readonly string[],
    stages: readonly FlowStage[],
    onEvent: (event: FlowEvent) => void,
    signal?: AbortSignal,
    version?: string,
  ): Promise<FlowResult> {
    const {
      projectRoot,
      stateRoot,
      manifest,
      sources,
      ats,
      workers,
      repeat,
      narrow,
      out,
      keep,
      push,
      executor,
      progressIntervalMs,
      spec,
      mineAll,
      margin,
      candidates,
      changedSince,
      datedAgainst,
    } = this.settings;
    return runFlow(this.catalog, {
      executor,
      projectRoot,
      stateRoot,
      manifest,
      sources,
      ats,
      workers,
      repeat,
      spec,
      mineAll,
      margin,
      candidates,
      changedSince,
      datedAgainst,
      narrow,
      out,
      keep,
      push: push ?? undefined,
      version: version ?? this.settings.version ?? undefined,
      repositories,
      stages,
      onEvent,
      signal,
      progressIntervalMs,
    });
  }
}

/**
 * The version after the latest released one (`1.0` → `1.1`, `2` → `3`), or DEFAULT_RELEASE_VERSION for an empty
 * folder.
 */
export function nextVersion(released: readonly string[]): string {
  const latest = released.at(-1);
  if (latest === undefined) return DEFAULT_RELEASE_VERSION;
  const match = /^(.*?)(\d+)$/.exec(latest);
  if (match === null) return `${latest}.1`;
  return `${match[1] ?? ''}${Number(match[2]) + 1}`;
}
