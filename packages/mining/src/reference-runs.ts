import { DEFAULT_REPEAT, RepocodError, tailLines } from '@repocod/core';
import { join } from 'node:path';
import type {
  JobResult,
  JobStore,
  PreparedRepository,
  PytestRun,
  RunJob,
  SuiteShard,
  TestResult,
} from '@repocod/runner';
import { describeShard, listTestFiles, shardSelection, shardTimeoutSeconds, splitSuite } from '@repocod/runner';
import type { Baseline, BaselineTest } from './baseline.js';
import { baselineOf, classifyBaseline } from './baseline.js';
import type { CoverageEntry } from './coverage-map.js';
import { mergeCoverage, parseCoverageArtifact } from './coverage-map.js';
import { coveragePlan } from './harness-plans.js';
import type { MineOptions } from './mine-options.js';
import type { MiningJobs } from './mining-jobs.js';
import type { MiningPhases } from './mining-phases.js';
import type { MutationTarget } from './mutation-target.js';

/** How many lines of a run's log an error that stops mining quotes. */
const ERROR_LOG_LINES = 20;

/** What the reference runs give the mutation phase: the tests that pass at the base commit, and who runs what. */
export interface Reference {
  readonly baseline: Baseline;
  readonly coverage: ReadonlyMap<string, CoverageEntry>;
}

/**
 * The k reference runs of the whole suite at the base commit: the first traced for the coverage
 * map, the others plain. Each run is split into shards by test file (see splitSuite), so that no
 * job holds a big suite, each with a limit that fits its size; every finished shard is stored as
 * it ends, so that a stopped baseline resumes from the shards it finished. Their outcomes make the
 * baseline, the same in both modes. A stored baseline is reused; when only the coverage of some
 * targets is missing (a resumed run with more functions), only the traced run is made again, for them.
 */
export class ReferenceRuns {
  constructor(
    private readonly prepared: PreparedRepository,
    private readonly jobs: MiningJobs,
    private readonly phases: MiningPhases,
    private readonly options: MineOptions,
  ) {}

  async run(pending: readonly MutationTarget[]): Promise<Reference> {
    const { store } = this.options;
    const stored = await store.loadBaseline();
    const coverage = new Map(await store.loadCoverage());
    const pendingIds = new Set(pending.map((target) => target.id));
    const toTrace = [...pending, ...(this.options.traceAlso ?? []).filter((target) => !pendingIds.has(target.id))];
    const uncovered = toTrace.filter((target) => !coverage.has(target.id));
    const repeat = this.options.repeat ?? DEFAULT_REPEAT;
    const traced = stored === null || (this.options.mode === 'fast' && uncovered.length > 0);
    const shards = traced ? this.suiteShards(stored) : [];
    // The k - 1 plain runs of a shard are one job: the same job's attempts, stored together. With `relevant` reruns
    // they come after the mutations, of the tests that ended in a FAIL_TO_PASS only (relevant-reruns.ts).
    const plainRepeat = stored === null && this.options.reruns !== 'relevant' ? Math.max(0, repeat - 1) : 0;
    const jobs = this.shardJobs(shards, uncovered, plainRepeat);
    const results = await this.phases.runStored(
      'baseline',
      [...jobs.keys()],
      uncovered.length,
      completeShards(this.options.store.referenceJobs),
    );
    const tracedResults: TestResult[] = [];
    const plainRuns: TestResult[][] = Array.from({ length: plainRepeat }, () => []);
    const covered = new Map<string, CoverageEntry>();
    // In job order, whatever order they finished in: the baseline does not depend on the pool.
    for (const [job, shard] of jobs) {
      const result = results.get(job) as JobResult;
      const isTraced = job.plugins !== undefined;
      if (!isTraced) {
        for (const [attempt, run] of this.shardRuns(result, shard, job).entries())
          plainRuns[attempt]?.push(...run.results);
        continue;
      }
      const run = this.usableRun(
        result,
        shards.length === 1 ? 'the traced reference run' : `the traced reference run of shard ${describeShard(shard)}`,
      );
      tracedResults.push(...run.results);
      if (run.artifact === null)
        throw new RepocodError(
          'tests-cannot-run',
          `${this.prepared.entry.name}: the traced reference run wrote no coverage map.\n` +
            `${tailLines(run.log, ERROR_LOG_LINES, 'trimmed').join('\n')}`,
        );
      for (const [id, entry] of parseCoverageArtifact(run.artifact, `${this.prepared.entry.name}: the coverage map`))
        covered.set(id, mergeCoverage(covered.get(id), entry));
    }
    if (covered.size > 0) {
      for (const [id, entry] of covered) coverage.set(id, entry);
      await store.saveCoverage(covered);
    }
    let baseline: Baseline;
    if (stored === null) {
      baseline = classifyBaseline([tracedResults, ...plainRuns]);
      await store.saveBaseline(baseline.tests);
    } else {
      baseline = baselineOf(stored);
    }
    if (baseline.passing.size === 0 && pending.length > 0) {
      throw new RepocodError(
        'tests-cannot-run',
        `${this.prepared.entry.name}: no test passes at the base commit (${baseline.tests.length} reported), so no ` +
          `test can be relevant. Run \`repocod run ${this.prepared.entry.name} --all\` to see why.`,
      );
    }
    return { baseline, coverage };
  }

  /**
   * Each shard's jobs, with their shard: the traced run over the uncovered targets and, when `plainRepeat` > 0, the
   * plain runs. The traced shards are the slowest jobs: they start first and the plain runs fill in around them.
   */
  private shardJobs(
    shards: readonly SuiteShard[],
    uncovered: readonly MutationTarget[],
    plainRepeat: number,
  ): Map<RunJob, SuiteShard> {
    const plan = coveragePlan(this.prepared.entry.packageRoot, uncovered);
    const traced = new Map<RunJob, SuiteShard>();
    const plain = new Map<RunJob, SuiteShard>();
    for (const [index, shard] of shards.entries()) {
      const part = {
        tests: 'all' as const,
        ...shardSelection(shards, index),
        timeoutSeconds: shardTimeoutSeconds(shard, this.prepared.entry.timeoutSeconds),
      };
      traced.set(this.jobs.reference({ ...part, plugins: ['repocod_coverage'], pluginInput: plan }), shard);
      if (plainRepeat > 0) plain.set(this.jobs.reference({ ...part, repeat: plainRepeat }), shard);
    }
    return new Map([...traced, ...plain]);
  }

  /** The whole suite in shards by test file, balanced by the baseline's durations when one is stored. */
  private suiteShards(stored: readonly BaselineTest[] | null): SuiteShard[] {
    const { entry } = this.prepared;
    const files = listTestFiles(join(this.prepared.checkout.path, entry.packageRoot), entry.testRoots);
    let durations: Map<string, number> | undefined;
    if (stored !== null) {
      durations = new Map();
      for (const test of stored) {
        const file = test.nodeId.split('::')[0] ?? test.nodeId;
        durations.set(file, (durations.get(file) ?? 0) + test.seconds);
      }
    }
    return splitSuite(files, {
      workers: Math.max(1, this.phases.parallelism),
      filesPerShard: this.options.shardFiles,
      durations,
    });
  }

  /**
   * The runs of a plain baseline shard. One that timed out or crashed keeps the tests it reported
   * (pytest-reportlog writes each as it finishes); the tests it did not reach are missing from that
   * run, hence not passing, and the shard is reported.
   */
  private shardRuns(result: JobResult, shard: SuiteShard, job: RunJob): PytestRun[] {
    const broken = result.runs.find((run) => run.status === 'infra-error');
    // Nothing ran: the suite cannot run here (usableRun says why).
    if (result.patchError !== null || result.runs.length === 0 || broken !== undefined)
      return [this.usableRun({ ...result, runs: broken === undefined ? result.runs : [broken] }, 'a reference run')];
    for (const run of result.runs) {
      if (run.status !== 'timeout' && run.status !== 'crashed') continue;
      const limitSeconds = job.timeoutSeconds ?? this.prepared.entry.timeoutSeconds;
      this.options.onEvent?.({
        kind: 'shard-incomplete',
        shard: describeShard(shard),
        status: run.status,
        reported: run.results.length,
        limitSeconds,
      });
    }
    return [...result.runs];
  }

  /** A run that finished on its own; a baseline or coverage run that did not means the suite cannot run here. */
  private usableRun(result: JobResult, what: string): PytestRun {
    const run = result.runs[0];
    if (result.patchError !== null || run === undefined || (run.status !== 'ok' && run.status !== 'collection-error')) {
      const status = result.patchError !== null ? 'patch-error' : (run?.status ?? 'not run');
      throw new RepocodError(
        'tests-cannot-run',
        `${this.prepared.entry.name}: ${what} at the base commit ended with ${status} (exit code ` +
          `${run?.exitCode ?? 'none'}); mining needs the suite to run. The end of its ` +
          `log:\n${tailLines(run?.log ?? result.patchError ?? '', ERROR_LOG_LINES, 'trimmed').join('\n')}`,
      );
    }
    return run;
  }
}

/**
 * The store of the reference runs (and of `relevant` reruns), keeping only complete shards: one that timed out or
 * crashed runs again if the baseline is not saved this time.
 */
export function completeShards(store: JobStore): JobStore {
  return {
    stored: (job) => store.stored(job),
    record: async (result) => {
      if (
        result.patchError === null &&
        result.runs.every((run) => run.status === 'ok' || run.status === 'collection-error')
      )
        await store.record(result);
    },
  };
}
