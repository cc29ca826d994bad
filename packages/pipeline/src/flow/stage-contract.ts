import type { CandidateModeName } from '@repocod/core';
import type { Catalog } from '@repocod/catalog';
import type { ExecutorFactory } from '@repocod/runner';
import type { SelectionSpec } from '@repocod/tasks';
import type { FlowEvent, FlowStage } from './flow-events.js';
import type { FlowStatus, RepositoryStatus } from './flow-status.js';
import type { ReleaseDatings } from '../candidates/dated-against.js';
import type { LiteMargin } from '../lite/lite-plan.js';
import type { PreparedRepositories } from '../steps/prepare.js';
import type { HubTarget } from '../steps/publish.js';

/**
 * The contract every stage of the flow keeps (see runFlow): one entry point that takes one
 * StageContext and returns a line for people; what a later stage needs, it leaves in the flow's state
 * (the repository prepared once, the selection), never for the next stage to recompute.
 */

/** The flow's settings, resolved once from the options (defaults here, nowhere else in the flow). */
export interface FlowSettings {
  readonly workers: number;
  /** Baseline runs when mining. */
  readonly repeat: number;
  /** --repeat as given: validation's k is the manifest's validate_runs per repository where it is not. */
  readonly validateRepeat: number | undefined;
  readonly spec: SelectionSpec;
  /** Mine every candidate; otherwise Lite-first. */
  readonly mineAll: boolean;
  readonly margin: LiteMargin | undefined;
  readonly narrow: boolean | undefined;
  readonly version: string;
  readonly out: string;
  readonly keep: readonly string[] | undefined;
  readonly push: HubTarget | undefined;
  readonly projectRoot: string;
  /** Where clones, environments and worktrees live (default `.repocod/` under the project root). */
  readonly stateRoot: string | undefined;
  /** The user's manifest (default: the built-in ones) and `--source NAME=PATH` overrides. */
  readonly manifest: string | undefined;
  readonly sources: readonly string[] | undefined;
  /** `--at NAME=REF` options, resolved when each repository is prepared. */
  readonly ats: readonly string[] | undefined;
  /** Where the runner's jobs run (default: the local pool on each repository's worktrees). */
  readonly executor: ExecutorFactory | undefined;
  /** Which candidates mine and tasks take (see CANDIDATE_MODES); default `docstring`. */
  readonly candidates: CandidateModeName | undefined;
  /** Only the candidates whose body changed after this cutoff (UTC; `--changed-since`). */
  readonly changedSince: string | undefined;
  /** The repositories dated by release diff (`--dated-against`), checked against the flow's repositories. */
  readonly datedAgainst: ReleaseDatings | undefined;
}

/** What the stages leave for the ones after them. */
export interface FlowState {
  /** The repositories still in the flow: a repository whose stage fails leaves it. */
  readonly active: string[];
  /** Repositories prepared and extracted, waiting for Lite-first mining over all of them. */
  readonly extracted: Set<string>;
  /** The mining key each repository's mining returned: the tasks stage reads its results under it. */
  readonly miningKeys: Map<string, string>;
  /** The selection the select stage stored (undefined: the latest in the catalog). */
  selectionId: string | undefined;
  release: FlowRelease | null;
}

export interface FlowRelease {
  readonly folder: string;
  readonly version: string;
  readonly rows: number;
  readonly written: boolean;
}

/** What a stage reports as it goes. */
export interface StageProgress {
  readonly step: (done: number, total: number, item: string) => void;
  readonly problem: (message: string) => void;
}

/** A stage row's progress, with its heartbeat stopped when the row ends. */
export interface StageRow extends StageProgress {
  readonly stop: () => void;
}

export interface StageContext {
  readonly catalog: Catalog;
  readonly settings: FlowSettings;
  /** Each repository as the prepare stage made it: the later stages take it from here. */
  readonly repositories: PreparedRepositories;
  readonly state: FlowState;
  /** The rows of the stages screen and the headless lines: for a stage that keeps rows of its own. */
  readonly rows: StageRows;
}

/**
 * The rows a stage writes (stage-start, progress, problems, stage-done or stage-failed), with the
 * stage time recorded for a repository's row. runFlow opens and closes one row per stage and
 * repository; Lite-first mining, which spans repositories, opens the `mine` rows itself.
 */
export interface StageRows {
  readonly emit: (event: FlowEvent) => void;
  readonly aborted: () => boolean;
  /** Starts a row: emits stage-start and begins its heartbeat. */
  open(stage: FlowStage, repository: string | null): StageRow;
  /** Ends a row as done, recording its time when it belongs to a repository. */
  done(stage: FlowStage, repository: string | null, row: StageRow, summary: string, seconds: number): Promise<void>;
  /** Ends a row as failed (the flow's failures list gets it); a stop on purpose is rethrown. */
  failed(stage: FlowStage, repository: string | null, row: StageRow, error: unknown, seconds: number): void;
  /** Runs a stage body in a row of its own: undefined when it failed (reported), its value otherwise. */
  run<T>(
    stage: FlowStage,
    repository: string | null,
    body: (progress: StageProgress) => Promise<{ summary: string; value: T }>,
  ): Promise<T | undefined>;
}

/**
 * A stage of the flow: the one place its name, its title, its rows and how it runs are stated. The flow's list of
 * them (FLOW_STAGE_LIST) is what the stages screen, the headless lines, `--status` and runFlow all read.
 */
export interface StageDefinition {
  readonly stage: FlowStage;
  /** For people: what the stage does, in a few words. */
  readonly title: string;
  /** Its rows: one per repository, or one over all of them. */
  readonly rows: 'per-repository' | 'one';
  /** The stages that must run before it in the same flow (a repository's checkout before its functions …). */
  readonly needs?: readonly FlowStage[];
  /** How it runs under these settings; null when another stage's runner does its work. */
  runner(settings: FlowSettings): Stage | null;
  /**
   * What the catalog and the state folder already hold of its work, in a few words (a row's summary before
   * anything runs); null when nothing. `repository` is the row's (undefined for a row over all of them).
   */
  stored(status: FlowStatus, repository: RepositoryStatus | undefined): string | null;
}

/** A stage run once per repository still in the flow, one row each. */
export interface RepositoryStage {
  readonly stage: FlowStage;
  readonly scope: 'repository';
  run(context: StageContext, repository: string, progress: StageProgress): Promise<string>;
}

/** A stage run once over every repository, one row. */
export interface CollectiveStage {
  readonly stage: FlowStage;
  readonly scope: 'all';
  run(context: StageContext, progress: StageProgress): Promise<string>;
}

/** A stage that keeps its own rows (Lite-first mining: a `mine` row per repository, the tasks after). */
export interface SpanningStage {
  readonly stage: FlowStage;
  readonly scope: 'spanning';
  run(context: StageContext): Promise<void>;
}

export type Stage = RepositoryStage | CollectiveStage | SpanningStage;

/** A stage that finished its work but whose outcome stops the flow (validation that could not judge). */
export class FlowStageError extends Error {}

/** Stopped on purpose (the curator quit, or a signal): not a failure of any stage. */
export class FlowAborted extends Error {
  constructor() {
    super('the flow was stopped; what finished is in the catalog');
  }
}
