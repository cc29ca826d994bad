import type { BuildCost } from '../jobs/cost-table.js';

/** A stage's name (FLOW_STAGE_LIST in stage-list.ts holds the flow's stages). */
export type FlowStage = string;

/**
 * The typed progress of the whole flow. Both front ends render this one stream: the TUI as bars and
 * tables, the headless mode as a line per step (or, with --json, these very objects, one per line).
 * `repository` is null for the stages that run over every repository at once.
 */
export type FlowEvent =
  /** `stages`: the stages this run goes through (the others are left as they stand). */
  | { readonly kind: 'flow-start'; readonly repositories: readonly string[]; readonly stages: readonly FlowStage[] }
  | { readonly kind: 'stage-start'; readonly stage: FlowStage; readonly repository: string | null }
  /**
   * A step of a stage, and, every progress interval while a stage runs (`periodic`), where it stands
   * even when nothing finished: the elapsed time, the ETA at the current pace, and how long the count
   * has not moved. The headless mode prints the periodic ones.
   */
  | {
      readonly kind: 'stage-progress';
      readonly stage: FlowStage;
      readonly repository: string | null;
      readonly done: number;
      readonly total: number;
      readonly item: string;
      readonly elapsedSeconds?: number;
      readonly etaSeconds?: number | null;
      readonly idleSeconds?: number;
      readonly periodic?: boolean;
    }
  /** Something that went wrong with one item while the stage goes on (a task that fails a check …). */
  | {
      readonly kind: 'stage-problem';
      readonly stage: FlowStage;
      readonly repository: string | null;
      readonly message: string;
    }
  | {
      readonly kind: 'stage-done';
      readonly stage: FlowStage;
      readonly repository: string | null;
      readonly summary: string;
      readonly seconds: number;
    }
  | {
      readonly kind: 'stage-failed';
      readonly stage: FlowStage;
      readonly repository: string | null;
      readonly message: string;
      readonly seconds: number;
    }
  | {
      readonly kind: 'flow-done';
      readonly ok: boolean;
      readonly failures: number;
      readonly release: {
        readonly folder: string;
        readonly version: string;
        readonly rows: number;
        readonly written: boolean;
      } | null;
      readonly seconds: number;
      /** The jobs the run ran, per repository and phase (the catalog's answers cost nothing). */
      readonly cost: BuildCost;
    }
  /** The flow was stopped on purpose (quit, a signal): what finished is stored. */
  | { readonly kind: 'flow-stopped'; readonly seconds: number };
