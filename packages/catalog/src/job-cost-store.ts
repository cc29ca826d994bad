import { type JobCost, jobCostFromRow, type StoredJobCost } from './job-costs-table.js';
import { nullableInteger, timestampValueOf } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { readRows } from './catalog-engine.js';

/** What the flow's runner jobs cost, per repository, stage and phase: the cost ledger's table. */
export interface JobCostStore {
  /**
   * Adds what finished jobs cost to their repository's stage and phase (a row is created at its first job).
   * Called as each job finishes, so a killed build loses at most the job in hand.
   */
  addJobCost(cost: JobCost, at?: Date): Promise<void>;
  /** The stored costs, of one repository or of all, by repository, stage and phase. */
  jobCosts(repository?: string): Promise<StoredJobCost[]>;
  /** The tests of the repository's largest stored baseline (mining's whole suite), null without one. */
  suiteSize(repository: string): Promise<number | null>;
}

export function jobCostStore(engine: CatalogEngine): JobCostStore {
  return {
    addJobCost(cost: JobCost, at: Date = new Date()): Promise<void> {
      const label = `adding the cost of a ${cost.phase} job of ${cost.repository}`;
      return engine.exclusive(label, async (connection) => {
        await connection.run(
          `INSERT INTO job_costs (repository, stage, phase, jobs, processes, test_executions, busy_seconds, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (repository, stage, phase) DO UPDATE SET
             jobs = job_costs.jobs + excluded.jobs,
             processes = job_costs.processes + excluded.processes,
             test_executions = job_costs.test_executions + excluded.test_executions,
             busy_seconds = job_costs.busy_seconds + excluded.busy_seconds,
             updated_at = excluded.updated_at`,
          [
            cost.repository,
            cost.stage,
            cost.phase,
            cost.jobs,
            cost.processes,
            cost.testExecutions,
            cost.busySeconds,
            timestampValueOf(at),
          ],
        );
      });
    },

    jobCosts(repository?: string): Promise<StoredJobCost[]> {
      return engine.exclusive('reading the job costs', async (connection) => {
        const where = repository === undefined ? '' : 'WHERE repository = $1';
        const rows = await readRows(
          connection,
          `SELECT * FROM job_costs ${where} ORDER BY repository, stage, phase`,
          repository === undefined ? [] : [repository],
        );
        return rows.map(jobCostFromRow);
      });
    },

    suiteSize(repository: string): Promise<number | null> {
      return engine.exclusive(`reading the suite size of ${repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT max(n) AS tests FROM
             (SELECT count(*) AS n FROM mining_baseline WHERE repository = $1 GROUP BY mining_key)`,
          [repository],
        );
        return rows[0] === undefined ? null : nullableInteger(rows[0], 'tests');
      });
    },
  };
}
