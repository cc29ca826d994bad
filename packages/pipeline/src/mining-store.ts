import type { Catalog } from '@repocod/catalog';
import type { BaselineTest, CoverageEntry, FunctionMining, MiningMode, MiningStore } from '@repocod/mining';

/** Mining's store backed by the catalog: the tables mining_baseline, mining_coverage and relevant_tests. */
export class CatalogMiningStore implements MiningStore {
  constructor(
    private readonly catalog: Catalog,
    private readonly repository: string,
    private readonly miningKey: string,
  ) {}

  async loadBaseline(): Promise<readonly BaselineTest[] | null> {
    const rows = await this.catalog.miningBaseline(this.repository, this.miningKey);
    return rows === null ? null : rows.map((row) => ({ ...row, outcomes: row.outcomes as BaselineTest['outcomes'] }));
  }

  saveBaseline(tests: readonly BaselineTest[]): Promise<void> {
    return this.catalog.saveMiningBaseline(this.repository, this.miningKey, tests);
  }

  async loadCoverage(): Promise<ReadonlyMap<string, CoverageEntry>> {
    const rows = await this.catalog.miningCoverage(this.repository, this.miningKey);
    return new Map(rows.map((row) => [row.functionId, { tests: row.tests, subprocessTests: row.subprocessTests, importTime: row.importTime }]));
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
    return new Map(rows.map((row) => [row.functionId, { id: row.functionId, qualname: row.qualname, status: row.status, tests: row.tests, reason: row.reason, method: row.method, candidates: row.candidates, seconds: row.seconds }]));
  }

  saveFunction(mode: MiningMode, result: FunctionMining): Promise<void> {
    return this.catalog.saveRelevantTests(this.repository, this.miningKey, mode, { ...result, functionId: result.id });
  }
}
