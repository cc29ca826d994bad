import { resolveWorkers, tailLines } from '@repocod/core';
import type { Catalog } from '@repocod/catalog';
import { join } from 'node:path';
import type { ExecutorFactory, JobResult, PreparedRepository, RunJob, TestOutcome, TestResult } from '@repocod/runner';
import {
  catalogName,
  listTestFiles,
  localExecutor,
  shardSelection,
  shardTimeoutSeconds,
  splitSuite,
} from '@repocod/runner';
import { JobPool } from '@repocod/runner';
import { CatalogJobStore } from '../jobs/catalog-job-store.js';

export interface RunTestsStepOptions {
  /** Jobs the listed tests are split into (default: one per core), and the whole suite's shards. */
  readonly workers?: number;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  readonly patches: readonly string[];
  readonly tests: readonly string[] | 'all';
  readonly repeat?: number;
  /**
   * A job's limit for listed tests; with the whole suite, each test's (a shard gets it per file; see
   * shardTimeoutSeconds).
   */
  readonly timeoutSeconds?: number;
  /** Run again even when the catalog already holds this job's results. */
  readonly fresh?: boolean;
  /** Test files per shard of the whole suite (default DEFAULT_SHARD_FILES). */
  readonly shardFiles?: number;
  readonly onEvent?: (event: RunTestsEvent) => void;
}

export type RunTestsEvent =
  | { readonly kind: 'run-start'; readonly jobs: number; readonly fromCatalog: number; readonly shards: number }
  | { readonly kind: 'job-done'; readonly done: number; readonly total: number; readonly status: string };

export interface RunTestsSummary {
  readonly repository: string;
  readonly baseCommit: string;
  readonly python: string;
  readonly environmentKey: string;
  readonly jobs: number;
  readonly counts: Readonly<Partial<Record<TestOutcome, number>>>;
  /** Run statuses other than ok, and patches that did not apply, with what they said. */
  readonly problems: readonly string[];
  readonly durationSeconds: number;
  readonly slowest: readonly TestResult[];
  readonly network: string;
  readonly results: readonly TestResult[];
  /** Jobs answered from the catalog instead of run. */
  readonly fromCatalog: number;
}

/**
 * The requested tests on a prepared repository's base commit plus patches. Listed node ids are split by
 * file over the workers (a file's tests stay together, so module fixtures are set up once); the
 * whole suite is split into shards by test file (see splitSuite), each with a limit that fits it and
 * pytest-timeout on each test, so that no job holds a big suite and a hung test fails alone.
 */
export async function runTestsStep(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: RunTestsStepOptions,
): Promise<RunTestsSummary> {
  const workers = resolveWorkers(options.workers);
  const jobs =
    options.tests === 'all'
      ? suiteJobs(options, prepared, workers)
      : splitJobs(options, catalogName(prepared.entry), workers);
  const started = performance.now();
  // Each job is stored as it finishes: a killed run loses only the jobs in flight.
  const store = new CatalogJobStore(catalog, prepared);
  const pool = new JobPool(store, (options.executor ?? localExecutor)(prepared), (result, tally) =>
    options.onEvent?.({
      kind: 'job-done',
      done: tally.ran,
      total: tally.toRun,
      status:
        result.patchError !== null ? 'patch-error' : (result.runs.find((run) => run.status !== 'ok')?.status ?? 'ok'),
    }),
  );
  // Any stored run answers `run`, a timed-out shard too: it shows what the suite did (--fresh runs it again).
  const answers = Promise.all(jobs.map((job) => pool.submit(job, { fresh: options.fresh === true, rerun: [] })));
  const plan = await pool.plan();
  options.onEvent?.({
    kind: 'run-start',
    jobs: plan.toRun,
    fromCatalog: plan.fromCatalog,
    shards: options.tests === 'all' ? jobs.length : 0,
  });
  pool.start();
  const results = await answers;
  const fromCatalogCount = plan.fromCatalog;
  return { ...summarise(prepared, results, (performance.now() - started) / 1000), fromCatalog: fromCatalogCount };
}

/** The whole suite as shards: a timed-out shard keeps what it ran (the report is written as tests end). */
function suiteJobs(options: RunTestsStepOptions, prepared: PreparedRepository, workers: number): RunJob[] {
  const { entry } = prepared;
  const perTest = options.timeoutSeconds ?? entry.timeoutSeconds;
  const files = listTestFiles(join(prepared.checkout.path, entry.packageRoot), entry.testRoots);
  const shards = splitSuite(files, { workers, filesPerShard: options.shardFiles });
  return shards.map((shard, index) => ({
    repository: catalogName(entry),
    patches: options.patches,
    repeat: options.repeat,
    tests: 'all',
    ...shardSelection(shards, index),
    pytestArgs: [`--timeout=${perTest}`],
    timeoutSeconds: shardTimeoutSeconds(shard, perTest),
  }));
}

function splitJobs(options: RunTestsStepOptions, repository: string, workers: number): RunJob[] {
  const common = {
    repository,
    patches: options.patches,
    repeat: options.repeat,
    timeoutSeconds: options.timeoutSeconds,
  };
  const byFile = new Map<string, string[]>();
  for (const id of options.tests === 'all' ? [] : options.tests) {
    const file = id.split('::')[0] ?? id;
    byFile.set(file, [...(byFile.get(file) ?? []), id]);
  }
  const chunks: string[][] = Array.from({ length: Math.min(workers, byFile.size) || 1 }, () => []);
  // Largest files first onto the lightest chunk.
  for (const ids of [...byFile.values()].sort((a, b) => b.length - a.length)) {
    const lightest = chunks.reduce((best, chunk) => (chunk.length < best.length ? chunk : best));
    lightest.push(...ids);
  }
  return chunks.filter((chunk) => chunk.length > 0).map((tests) => ({ ...common, tests }));
}

function summarise(
  prepared: PreparedRepository,
  results: readonly JobResult[],
  durationSeconds: number,
): RunTestsSummary {
  const tests: TestResult[] = [];
  const problems: string[] = [];
  let network = '';
  for (const result of results) {
    if (result.patchError !== null) problems.push(result.patchError);
    for (const run of result.runs) {
      network = run.network;
      if (run.status !== 'ok')
        problems.push(
          `${run.status} (exit code ${run.exitCode ?? 'none'}):\n${tailLines(run.log, 15, 'verbatim').join('\n')}`,
        );
      tests.push(...run.results);
    }
  }
  const counts: Partial<Record<TestOutcome, number>> = {};
  for (const test of tests) counts[test.outcome] = (counts[test.outcome] ?? 0) + 1;
  return {
    repository: catalogName(prepared.entry),
    baseCommit: prepared.checkout.baseCommit,
    python: `${prepared.environment.pythonVersion} (${prepared.environment.installer})`,
    environmentKey: prepared.environment.key,
    jobs: results.length,
    counts,
    problems,
    durationSeconds,
    slowest: [...tests].sort((a, b) => b.duration - a.duration).slice(0, 5),
    network,
    results: tests,
    fromCatalog: 0,
  };
}
