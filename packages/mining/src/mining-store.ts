import type { JobResult, RunJob } from '@repocod/runner';
import type { BaselineTest } from './baseline.js';
import type { CoverageEntry } from './coverage-map.js';
import type { MiningMode } from '@repocod/core';

export type { MiningMode } from '@repocod/core';

/** How a function's relevant tests were found. */
export type MiningMethod = 'in-process' | 'fresh-process' | 'whole-suite' | 'coverage';

/** The mining result of one function, stored as soon as it is known. */
export interface FunctionMining {
  readonly id: string;
  readonly qualname: string;
  /**
   * `tests`: it has relevant tests (a task); `no-tests`: none, with the reason; `error`: the runs failed, retried on
   * the next run unless the mutation itself stopped pytest (see isSettledError).
   */
  readonly status: 'tests' | 'no-tests' | 'error';
  /** The relevant tests (FAIL_TO_PASS), sorted. */
  readonly tests: readonly string[];
  readonly reason: string | null;
  readonly method: MiningMethod;
  /** How many tests ran against the mutation. */
  readonly candidates: number;
  /** The function's share of the process time of the run(s) that answered it. */
  readonly seconds: number;
}

/**
 * Where mining keeps what it has found, so that a killed run resumes: the baseline, the coverage map
 * and each function's result as it finishes. The pipeline backs it with the catalog.
 */
export interface MiningStore {
  loadBaseline(): Promise<readonly BaselineTest[] | null>;
  saveBaseline(tests: readonly BaselineTest[]): Promise<void>;
  loadCoverage(): Promise<ReadonlyMap<string, CoverageEntry>>;
  saveCoverage(entries: ReadonlyMap<string, CoverageEntry>): Promise<void>;
  finishedFunctions(mode: MiningMode): Promise<ReadonlyMap<string, FunctionMining>>;
  saveFunction(mode: MiningMode, result: FunctionMining): Promise<void>;
  /**
   * A reference run's shard (a baseline or traced job) that finished earlier under this store's key,
   * with its artifact (the traced shard's coverage), or null: a stopped baseline resumes from there.
   */
  finishedReferenceJob(job: RunJob): Promise<JobResult | null>;
  saveReferenceJob(result: JobResult): Promise<void>;
}

/** A store in memory: for one-off runs (the benchmark measures each mode from nothing) and tests. */
export class MemoryMiningStore implements MiningStore {
  private baseline: readonly BaselineTest[] | null = null;
  private readonly coverage = new Map<string, CoverageEntry>();
  private readonly functions: Record<MiningMode, Map<string, FunctionMining>> = { fast: new Map(), exact: new Map() };
  private readonly referenceJobs = new Map<string, JobResult>();

  async loadBaseline(): Promise<readonly BaselineTest[] | null> {
    return this.baseline;
  }

  async saveBaseline(tests: readonly BaselineTest[]): Promise<void> {
    this.baseline = tests;
  }

  async loadCoverage(): Promise<ReadonlyMap<string, CoverageEntry>> {
    return new Map(this.coverage);
  }

  async saveCoverage(entries: ReadonlyMap<string, CoverageEntry>): Promise<void> {
    for (const [id, entry] of entries) this.coverage.set(id, entry);
  }

  async finishedFunctions(mode: MiningMode): Promise<ReadonlyMap<string, FunctionMining>> {
    return new Map(this.functions[mode]);
  }

  async saveFunction(mode: MiningMode, result: FunctionMining): Promise<void> {
    this.functions[mode].set(result.id, result);
  }

  async finishedReferenceJob(job: RunJob): Promise<JobResult | null> {
    return this.referenceJobs.get(JSON.stringify(job)) ?? null;
  }

  async saveReferenceJob(result: JobResult): Promise<void> {
    this.referenceJobs.set(JSON.stringify(result.job), result);
  }
}
