import type { JobStore } from '@repocod/runner';
import { MemoryJobStore } from '@repocod/runner';
import type { BaselineTest } from './baseline.js';
import type { CoverageEntry } from './coverage-map.js';
import type { FunctionMiningResult, MiningMode } from '@repocod/core';

export type { MiningMode } from '@repocod/core';

export type { FunctionMiningResult, MiningMethod, MiningStatus } from '@repocod/core';

/** The mining result of one function, under its function id. */
export interface FunctionMining extends FunctionMiningResult {
  readonly id: string;
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
   * The reference runs' shards (baseline and traced jobs) that finished under this store's key, each with its
   * artifact (the traced shard's coverage): a stopped baseline resumes from there.
   */
  readonly referenceJobs: JobStore;
}

/** A store in memory: for one-off runs (the benchmark measures each mode from nothing) and tests. */
export class MemoryMiningStore implements MiningStore {
  private baseline: readonly BaselineTest[] | null = null;
  private readonly coverage = new Map<string, CoverageEntry>();
  private readonly functions: Record<MiningMode, Map<string, FunctionMining>> = { fast: new Map(), exact: new Map() };
  readonly referenceJobs: JobStore = new MemoryJobStore();

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
}
