import type { RunStore } from '@repocod/catalog';
import type { JobResult, JobStore, PreparedRepository, RunJob } from '@repocod/runner';
import { jobHash } from '@repocod/runner';
import { recordJobResult, storedJobResult } from './job-records.js';

/** The job pool's store in the catalog: a job's runs under its job hash (see job-records.ts). */
export class CatalogJobStore implements JobStore {
  constructor(
    private readonly catalog: RunStore,
    private readonly prepared: PreparedRepository,
  ) {}

  async stored(job: RunJob): Promise<JobResult | null> {
    return storedJobResult(job, this.prepared, await this.catalog.runsForJob(jobHash(job, this.prepared)));
  }

  record(result: JobResult): Promise<void> {
    return recordJobResult(this.catalog, this.prepared, result);
  }
}
