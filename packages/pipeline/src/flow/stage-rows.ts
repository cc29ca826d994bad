import type { StageTimeStore } from '@repocod/catalog';
import { isRepocodError } from '@repocod/core';
import type { FlowEvent, FlowStage } from './flow-events.js';
import type { ProgressReport } from './progress-ticker.js';
import { ProgressTicker } from './progress-ticker.js';
import type { StageProgress, StageRow, StageRows } from './stage-contract.js';
import { FlowAborted, FlowStageError } from './stage-contract.js';

export interface StageFailure {
  readonly stage: FlowStage;
  readonly repository: string | null;
  readonly message: string;
}

/** The flow's rows: events to the front end, heartbeats while a row runs, failures collected. */
export class FlowRows implements StageRows {
  readonly failures: StageFailure[] = [];

  constructor(
    private readonly catalog: StageTimeStore,
    readonly emit: (event: FlowEvent) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly progressIntervalMs: number | undefined,
    /** The catalog name a row's repository is kept under (its era's under --at); the row's name by default. */
    private readonly catalogNameOf: (repository: string) => string = (repository) => repository,
  ) {}

  // A method, not the property, so that TypeScript does not narrow it across awaits.
  aborted(): boolean {
    return this.signal?.aborted === true;
  }

  open(stage: FlowStage, repository: string | null): StageRow {
    this.emit({ kind: 'stage-start', stage, repository });
    const reportOf = (report: ProgressReport, periodic: boolean): FlowEvent => ({
      kind: 'stage-progress',
      stage,
      repository,
      ...report,
      periodic,
    });
    const ticker = new ProgressTicker((report) => {
      if (!this.aborted()) this.emit(reportOf(report, true));
    }, this.progressIntervalMs).start();
    return {
      step: (done, total, item) => {
        if (this.aborted()) return;
        ticker.step(done, total, item);
        // The ticker keeps the last named item: a step without one (a job done) still says what runs.
        this.emit(reportOf(ticker.report(), false));
      },
      problem: (message) => this.emit({ kind: 'stage-problem', stage, repository, message }),
      stop: () => ticker.stop(),
    };
  }

  async done(
    stage: FlowStage,
    repository: string | null,
    row: StageRow,
    summary: string,
    seconds: number,
  ): Promise<void> {
    // Kept for the record of the rebuild (repocod record); validate, which spans repositories, records its laps itself.
    if (repository !== null) await recordStageTime(this.catalog, this.catalogNameOf(repository), stage, seconds);
    this.emit({ kind: 'stage-done', stage, repository, summary, seconds });
    row.stop();
  }

  failed(stage: FlowStage, repository: string | null, row: StageRow, error: unknown, seconds: number): void {
    row.stop();
    if (error instanceof FlowAborted || this.aborted()) throw new FlowAborted();
    const message = failureMessage(error);
    this.failures.push({ stage, repository, message });
    this.emit({ kind: 'stage-failed', stage, repository, message, seconds });
  }

  async run<T>(
    stage: FlowStage,
    repository: string | null,
    body: (progress: StageProgress) => Promise<{ summary: string; value: T }>,
  ): Promise<T | undefined> {
    if (this.aborted()) throw new FlowAborted();
    const started = performance.now();
    const row = this.open(stage, repository);
    try {
      const { summary, value } = await body(row);
      await this.done(stage, repository, row, summary, (performance.now() - started) / 1000);
      return value;
    } catch (error) {
      this.failed(stage, repository, row, error, (performance.now() - started) / 1000);
      return undefined;
    }
  }
}

/** A stage's own errors say what to do; anything else is a bug, whose stack is what helps. */
export function failureMessage(error: unknown): string {
  return isRepocodError(error) || error instanceof FlowStageError
    ? error.message
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
}

/** A stage's wall time for the repository, replacing the one recorded when it last finished. */
export async function recordStageTime(
  catalog: StageTimeStore,
  repository: string,
  stage: FlowStage,
  seconds: number,
): Promise<void> {
  await catalog.recordStageTime({ repository, stage, seconds, finishedAt: new Date() });
}
