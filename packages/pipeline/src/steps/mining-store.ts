import type { MiningResultsStore, RunStore } from '@repocod/catalog';
import { contentHash } from '@repocod/core';
import type { BaselineTest, CoverageEntry, FunctionMining, MiningMode, MiningStore } from '@repocod/mining';
import { parseCoverageArtifact } from '@repocod/mining';
import type { JobResult, JobStore, PreparedRepository, RunJob } from '@repocod/runner';
import { catalogName, jobHash } from '@repocod/runner';
import { recordJobResult, storedJobResult } from '../jobs/job-records.js';

/**
 * Mining's store backed by the catalog: the tables mining_baseline, mining_coverage and
 * relevant_tests; the shards of the reference runs as runner jobs (runs, test_results), under a hash
 * that also holds the mining key, so that a new key (a new harness) never reuses them.
 */
export class CatalogMiningStore implements MiningStore {
  readonly referenceJobs: JobStore;

  constructor(
    /** Mining's own tables, and the runs its reference jobs are kept as. */
    private readonly catalog: MiningResultsStore & RunStore,
    private readonly prepared: PreparedRepository,
    private readonly miningKey: string,
  ) {
    this.referenceJobs = new ReferenceJobStore(catalog, prepared, miningKey);
  }

  private get repository(): string {
    return catalogName(this.prepared.entry);
  }

  loadBaseline(): Promise<readonly BaselineTest[] | null> {
    return this.catalog.miningBaseline(this.repository, this.miningKey);
  }

  saveBaseline(tests: readonly BaselineTest[]): Promise<void> {
    return this.catalog.saveMiningBaseline(this.repository, this.miningKey, tests);
  }

  async loadCoverage(): Promise<ReadonlyMap<string, CoverageEntry>> {
    const rows = await this.catalog.miningCoverage(this.repository, this.miningKey);
    return new Map(
      rows.map((row) => [
        row.functionId,
        { tests: row.tests, subprocessTests: row.subprocessTests, importTime: row.importTime },
      ]),
    );
  }

  saveCoverage(entries: ReadonlyMap<string, CoverageEntry>): Promise<void> {
    return this.catalog.saveMiningCoverage(
      this.repository,
      this.miningKey,
      [...entries].map(([functionId, entry]) => ({ functionId, ...entry })),
    );
  }

  async finishedFunctions(mode: MiningMode): Promise<ReadonlyMap<string, FunctionMining>> {
    const rows = await this.catalog.relevantTests(this.repository, { miningKey: this.miningKey, mode });
    return new Map(
      rows.map((row) => [
        row.functionId,
        {
          id: row.functionId,
          qualname: row.qualname,
          status: row.status,
          tests: row.tests,
          reason: row.reason,
          method: row.method,
          candidates: row.candidates,
          seconds: row.seconds,
        },
      ]),
    );
  }

  saveFunction(mode: MiningMode, result: FunctionMining): Promise<void> {
    return this.catalog.saveRelevantTests(this.repository, this.miningKey, mode, { ...result, functionId: result.id });
  }
}

/**
 * The shards of mining's reference runs as runner jobs (runs, test_results), under a hash that also holds the mining
 * key; a traced shard's coverage artifact is kept as coverage rows of its own key.
 */
class ReferenceJobStore implements JobStore {
  constructor(
    private readonly catalog: MiningResultsStore & RunStore,
    private readonly prepared: PreparedRepository,
    private readonly miningKey: string,
  ) {}

  private get repository(): string {
    return catalogName(this.prepared.entry);
  }

  async stored(job: RunJob): Promise<JobResult | null> {
    const hash = this.referenceHash(job);
    const result = storedJobResult(job, this.prepared, await this.catalog.runsForJob(hash));
    if (result === null || job.plugins === undefined) return result;
    // The catalog keeps runs, not artifacts: a traced shard's coverage is kept as rows of its own key.
    const rows = await this.catalog.miningCoverage(this.repository, this.shardCoverageKey(hash));
    const artifact = rows
      .map(({ functionId, tests, subprocessTests, importTime }) =>
        JSON.stringify({ id: functionId, tests, subprocessTests, importTime }),
      )
      .join('\n');
    return { ...result, runs: result.runs.map((run) => ({ ...run, artifact })) };
  }

  async record(result: JobResult): Promise<void> {
    const hash = this.referenceHash(result.job);
    const artifact = result.runs[0]?.artifact ?? null;
    if (result.job.plugins !== undefined && artifact !== null) {
      const entries = parseCoverageArtifact(artifact, `${this.repository}: the coverage map of a traced shard`);
      const rows = [...entries].map(([functionId, entry]) => ({ functionId, ...entry }));
      // First the coverage, then the runs: a shard counts as finished only once both are stored.
      await this.catalog.saveMiningCoverage(this.repository, this.shardCoverageKey(hash), rows);
    }
    await recordJobResult(this.catalog, this.prepared, { ...result, jobHash: hash });
  }

  private referenceHash(job: RunJob): string {
    return contentHash(`${this.miningKey}:${jobHash(job, this.prepared)}`);
  }

  private shardCoverageKey(hash: string): string {
    return `${this.miningKey}/shard/${hash}`;
  }
}
