import type { JobStore } from './job-pool.js';
import type { JobResult, RunJob } from './run-job.js';

/** Job results in memory, by the job's own fields: for one-off runs (nothing to resume) and tests. */
export class MemoryJobStore implements JobStore {
  private readonly results = new Map<string, JobResult>();

  async stored(job: RunJob): Promise<JobResult | null> {
    return this.results.get(JSON.stringify(job)) ?? null;
  }

  async record(result: JobResult): Promise<void> {
    this.results.set(JSON.stringify(result.job), result);
  }
}
