import { double, integer, type Row, text, timestamp } from './typed-cells.js';

/**
 * What one repository's runner jobs of one stage and phase have cost in this catalog, a row of `job_costs`.
 * The phase names are pipeline's (jobs/job-phase.ts); the catalog keeps them as text.
 */
export interface JobCost {
  /** The catalog name of the repository's era, `name@commit12`. */
  readonly repository: string;
  readonly stage: string;
  readonly phase: string;
  /** Runner jobs run (each one the catalog did not answer). */
  readonly jobs: number;
  /** pytest processes started: a job of k runs starts k. */
  readonly processes: number;
  /** Tests executed, summed over the processes. */
  readonly testExecutions: number;
  /** The processes' own seconds, summed. */
  readonly busySeconds: number;
}

/** A stored row, with when a job last added to it. */
export type StoredJobCost = JobCost & { readonly updatedAt: Date };

export function jobCostFromRow(row: Row): StoredJobCost {
  return {
    repository: text(row, 'repository'),
    stage: text(row, 'stage'),
    phase: text(row, 'phase'),
    jobs: integer(row, 'jobs'),
    processes: integer(row, 'processes'),
    testExecutions: integer(row, 'test_executions'),
    busySeconds: double(row, 'busy_seconds'),
    updatedAt: timestamp(row, 'updated_at'),
  };
}
