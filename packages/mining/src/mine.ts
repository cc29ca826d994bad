import { DEFAULT_REPEAT, RepocodError, tailLines } from '@repocod/core';
import { join } from 'node:path';
import type {
  Executor,
  JobResult,
  PreparedRepository,
  PytestRun,
  RunJob,
  SuiteShard,
  TestOutcome,
  TestResult,
} from '@repocod/runner';
import { describeShard, listTestFiles, shardSelection, shardTimeoutSeconds, splitSuite } from '@repocod/runner';
import type { Baseline, BaselineTest } from './baseline.js';
import { baselineOf, classifyBaseline } from './baseline.js';
import { packBatches } from './batches.js';
import type { CoverageEntry, Route } from './coverage-map.js';
import { mergeCoverage, parseCoverageArtifact, routeFunction } from './coverage-map.js';
import type { FunctionMining, MiningMethod, MiningMode, MiningStore } from './mining-store.js';
import { isSettledError } from './settled-error.js';
import type { InProcessRecord } from './mutation-artifact.js';
import { parseMutationArtifact } from './mutation-artifact.js';
import type { MutationTarget } from './mutation-target.js';
import { relevantTests } from './relevant-tests.js';
import { coveragePlan, type MutationEntry, mutationPlan } from './harness-plans.js';

export interface MineOptions {
  readonly mode: MiningMode;
  /** Whole-suite runs at the base commit that tell flaky tests (default 3). */
  readonly repeat?: number;
  /** Rerun every in-process result in a fresh process with the file patched, and compare. */
  readonly confirm?: boolean;
  /**
   * Estimated test seconds per in-process batch: smaller batches store results sooner, larger ones start fewer
   * processes (default 60).
   */
  readonly batchSeconds?: number;
  /** Traceback format of mutation runs (see MiningTracebacks; default native). */
  readonly tracebacks?: MiningTracebacks;
  /** Test files per shard of the whole-suite reference runs (default DEFAULT_SHARD_FILES; see splitSuite). */
  readonly shardFiles?: number;
  /**
   * More functions whose coverage the traced baseline run maps, without mining them now: Lite-first
   * mining maps every candidate in its first round, so that its later rounds need no traced run.
   */
  readonly traceAlso?: readonly MutationTarget[];
  readonly store: MiningStore;
  readonly onEvent?: (event: MiningEvent) => void;
}

/**
 * How mutation runs format failures: `native` (the default, Python's own tracebacks) or `pytest`
 * (pytest's default, as REPOCOD ran it). pytest's format parses the source of every frame of every
 * failure, which in a mutation run, where most tests fail, can cost ten times the tests themselves
 * (flask: 14.5 s against 1.6 s for one mutation). The tests a mutation breaks are the same, except
 * for tests broken by another test's leaked resources (a file closed by a garbage collection inside a
 * later test, under `filterwarnings = error`): those depend on collection timing, hence on the format.
 */
export type MiningTracebacks = 'pytest' | 'native';

/** baseline: the k reference runs, the first one traced for the coverage map. */
export type MiningPhase = 'baseline' | 'mutation' | 'fallback' | 'confirm';

export interface PhaseStats {
  readonly phase: MiningPhase;
  readonly wallSeconds: number;
  /** pytest processes started. */
  readonly processes: number;
  /** Seconds the processes ran, added up: wall × workers when the pool never idled. */
  readonly busySeconds: number;
  /** Test runs over all processes (a test run for two mutations counts twice). */
  readonly testExecutions: number;
}

export type MiningEvent =
  /** `jobs` to run now; `resumed` more were finished by an earlier, stopped run (baseline shards). */
  | {
      readonly kind: 'phase-start';
      readonly phase: MiningPhase;
      readonly jobs: number;
      readonly resumed: number;
      readonly functions: number;
    }
  | { readonly kind: 'job-done'; readonly phase: MiningPhase; readonly done: number; readonly total: number }
  /** A baseline shard that timed out or crashed: the tests it reported count, the others are missing from that run. */
  | {
      readonly kind: 'shard-incomplete';
      readonly shard: string;
      readonly status: string;
      readonly reported: number;
      readonly limitSeconds: number;
    }
  | { readonly kind: 'phase-done'; readonly stats: PhaseStats }
  | { readonly kind: 'function-done'; readonly result: FunctionMining; readonly done: number; readonly total: number }
  /** An in-process answer could not be had: the function goes to a fresh process of its own. */
  | { readonly kind: 'fallback'; readonly id: string; readonly qualname: string; readonly why: string };

export interface Mismatch {
  readonly id: string;
  readonly qualname: string;
  readonly inProcess: readonly string[];
  readonly freshProcess: readonly string[];
}

export interface MiningSummary {
  readonly mode: MiningMode;
  readonly repository: string;
  /** Every target's result, those answered by an earlier run included, in target order. */
  readonly functions: readonly FunctionMining[];
  /** Targets whose result came from the store (a resumed run). */
  readonly resumed: number;
  readonly baseline: Baseline;
  readonly phases: readonly PhaseStats[];
  readonly wallSeconds: number;
  /** Confirmation runs that disagreed with the in-process answer (the fresh-process answer is kept). */
  readonly mismatches: readonly Mismatch[];
  /** Confirmation runs made. */
  readonly confirmed: number;
}

const DEFAULT_BATCH_SECONDS = 60;
/** However fast their tests, no more functions than this wait for one process to end before they are stored. */
const MAX_BATCH_SIZE = 200;
/** A nominal cost per target so that functions with very fast tests still spread over the batches. */
const TARGET_OVERHEAD_SECONDS = 0.05;
/** How many lines of a run's log an error that stops mining quotes. */
const ERROR_LOG_LINES = 20;

/**
 * Finds the relevant tests (FAIL_TO_PASS) of every target: the tests that pass in all k baseline runs
 * and fail, error or can no longer be collected when the target's body is replaced by an assertion
 * failure. The exact mode runs the whole suite per target, as REPOCOD did. The fast mode gives the
 * same sets at a fraction of the cost: a coverage run names each target's candidate tests, and only
 * those run against its mutation, many mutations per pytest process (see harness/repocod_mutate.py);
 * code that runs at import time gets the suite collected with its mutation (see importTimeResult).
 */
export async function mineRepository(
  prepared: PreparedRepository,
  executor: Executor,
  targets: readonly MutationTarget[],
  options: MineOptions,
): Promise<MiningSummary> {
  const started = performance.now();
  const mining = new Mining(prepared, executor, options);
  const earlier = await options.store.finishedFunctions(options.mode);
  const settled = (found: FunctionMining | undefined): found is FunctionMining =>
    found !== undefined && (found.status !== 'error' || isSettledError(found));
  const pending = targets.filter((target) => !settled(earlier.get(target.id)));
  const results = new Map<string, FunctionMining>();
  for (const target of targets) {
    const found = earlier.get(target.id);
    if (settled(found)) results.set(target.id, found);
  }
  mining.total = targets.length;
  mining.done = results.size;
  const { baseline, coverage } = await mining.reference(pending);
  if (pending.length > 0) {
    const inProcess = await mining.mutate(pending, baseline, coverage, results);
    if (options.confirm === true && inProcess.length > 0) await mining.confirm(inProcess, baseline, results);
  }
  return {
    mode: options.mode,
    repository: prepared.entry.name,
    functions: targets.flatMap((target) => results.get(target.id) ?? []),
    resumed: targets.length - pending.length,
    baseline,
    phases: mining.phases,
    wallSeconds: (performance.now() - started) / 1000,
    mismatches: mining.mismatches,
    confirmed: mining.confirmed,
  };
}

type InProcessEntry = MutationEntry;

/** An import-time function's two jobs (the suite collected, its candidates run) and their results as they come. */
interface ImportTimeEntry {
  readonly target: MutationTarget;
  readonly candidates: readonly string[];
  readonly collect: RunJob;
  readonly run: RunJob | null;
  readonly results: Map<RunJob, JobResult>;
}

interface InProcessAnswer {
  readonly target: MutationTarget;
  readonly candidates: readonly string[];
  readonly tests: readonly string[];
}

/** The state of one mining run: its phases' figures and the progress counters. */
class Mining {
  readonly phases: PhaseStats[] = [];
  readonly mismatches: Mismatch[] = [];
  confirmed = 0;
  total = 0;
  done = 0;
  private readonly pytestArgs: readonly string[];
  private readonly mutationArgs: readonly string[];

  constructor(
    private readonly prepared: PreparedRepository,
    private readonly executor: Executor,
    private readonly options: MineOptions,
  ) {
    // Every mining run: a module that fails to collect must not stop the others, and a test that
    // hangs under a mutation fails alone instead of taking its whole run down (pytest-timeout).
    this.pytestArgs = ['--continue-on-collection-errors', `--timeout=${prepared.entry.timeoutSeconds}`];
    this.mutationArgs = [...this.pytestArgs, ...((options.tracebacks ?? 'native') === 'native' ? ['--tb=native'] : [])];
  }

  /**
   * The k reference runs of the whole suite at the base commit: the first traced for the coverage
   * map, the others plain. Each run is split into shards by test file (see splitSuite), so that no
   * job holds a big suite, each with a limit that fits its size; every finished shard is stored as
   * it ends, so that a stopped baseline resumes from the shards it finished. Their outcomes make the
   * baseline, the same in both modes. A stored baseline is reused; when only the coverage of some
   * targets is missing (a resumed run with more functions), only the traced run is made again, for them.
   */
  async reference(
    pending: readonly MutationTarget[],
  ): Promise<{ baseline: Baseline; coverage: ReadonlyMap<string, CoverageEntry> }> {
    const { store } = this.options;
    const stored = await store.loadBaseline();
    const coverage = new Map(await store.loadCoverage());
    const pendingIds = new Set(pending.map((target) => target.id));
    const toTrace = [...pending, ...(this.options.traceAlso ?? []).filter((target) => !pendingIds.has(target.id))];
    const uncovered = toTrace.filter((target) => !coverage.has(target.id));
    const repeat = this.options.repeat ?? DEFAULT_REPEAT;
    const traced = stored === null || (this.options.mode === 'fast' && uncovered.length > 0);
    const shards = traced ? this.suiteShards(stored) : [];
    const plan = coveragePlan(this.prepared.entry.packageRoot, uncovered);
    const tracedJobs: RunJob[] = [];
    const plainJobs: RunJob[] = [];
    const shardOf = new Map<RunJob, SuiteShard>();
    for (const [index, shard] of shards.entries()) {
      const part = {
        tests: 'all' as const,
        ...shardSelection(shards, index),
        timeoutSeconds: shardTimeoutSeconds(shard, this.prepared.entry.timeoutSeconds),
      };
      const tracedJob = this.referenceJob({ ...part, plugins: ['repocod_coverage'], pluginInput: plan });
      tracedJobs.push(tracedJob);
      shardOf.set(tracedJob, shard);
      // The k - 1 plain runs of a shard are one job: the same job's attempts, stored together.
      if (stored !== null || repeat < 2) continue;
      const plainJob = this.referenceJob({ ...part, repeat: repeat - 1 });
      plainJobs.push(plainJob);
      shardOf.set(plainJob, shard);
    }
    // The traced shards are the slowest jobs: they start first and the plain runs fill in around them.
    const jobs = [...tracedJobs, ...plainJobs];
    const finished: { job: RunJob; result: JobResult }[] = [];
    const toRun: RunJob[] = [];
    for (const job of jobs) {
      const earlier = await store.finishedReferenceJob(job);
      if (earlier === null) toRun.push(job);
      else finished.push({ job, result: earlier });
    }
    const ran = await this.runPhase(
      'baseline',
      toRun,
      uncovered.length,
      async (_job, result) => {
        // Only complete shards are kept: one that timed out or crashed runs again if the baseline is not saved this
        // time.
        if (
          result.patchError === null &&
          result.runs.every((run) => run.status === 'ok' || run.status === 'collection-error')
        )
          await store.saveReferenceJob(result);
      },
      finished.length,
    );
    const tracedResults: TestResult[] = [];
    const plainRuns: TestResult[][] = Array.from({ length: stored === null ? Math.max(0, repeat - 1) : 0 }, () => []);
    const covered = new Map<string, CoverageEntry>();
    // In job order, whatever order they finished in: the baseline does not depend on the pool.
    const byJob = new Map([...finished, ...ran].map(({ job, result }) => [job, result]));
    for (const job of jobs) {
      const result = byJob.get(job) as JobResult;
      const shard = shardOf.get(job) as SuiteShard;
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
          `${this.prepared.entry.name}: the traced reference run wrote no coverage map.\n\
${tailLines(run.log, ERROR_LOG_LINES, 'trimmed').join('\n')}`,
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
        `${this.prepared.entry.name}: no test passes at the base commit (${baseline.tests.length} reported), so no \
test can be relevant. Run \`repocod run ${this.prepared.entry.name} --all\` to see why.`,
      );
    }
    return { baseline, coverage };
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
      workers: Math.max(1, this.executor.parallelism),
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

  /**
   * The limit of a whole-suite mutation run: what the shards of the suite get together (a shard's
   * limit per file), since the manifest's timeout is REPOCOD's limit for one task's tests.
   */
  private suiteTimeoutSeconds(): number {
    const { entry } = this.prepared;
    const files = listTestFiles(join(this.prepared.checkout.path, entry.packageRoot), entry.testRoots);
    return shardTimeoutSeconds({ files: files.map((file) => file.path), rest: true, cost: 0 }, entry.timeoutSeconds);
  }

  /** Every pending target against its mutation, by the route its coverage gives (all whole-suite when exact). */
  async mutate(
    pending: readonly MutationTarget[],
    baseline: Baseline,
    coverage: ReadonlyMap<string, CoverageEntry>,
    results: Map<string, FunctionMining>,
  ): Promise<InProcessAnswer[]> {
    const routes = new Map<string, Route>();
    const wholeSuite: { target: MutationTarget; job: RunJob }[] = [];
    const inProcess: InProcessEntry[] = [];
    const importTime: ImportTimeEntry[] = [];
    let suiteLimit: number | undefined;
    for (const target of pending) {
      const route: Route =
        this.options.mode === 'exact'
          ? { kind: 'whole-suite', why: 'exact mode' }
          : routeFunction(coverage.get(target.id), baseline.passing);
      routes.set(target.id, route);
      if (route.kind === 'none') {
        await this.finish(results, {
          id: target.id,
          qualname: target.qualname,
          status: 'no-tests',
          tests: [],
          reason: route.reason,
          method: 'coverage',
          candidates: 0,
          seconds: 0,
        });
      } else if (route.kind === 'in-process') {
        inProcess.push({ target, candidates: route.candidates, onDisk: route.onDisk });
      } else if (route.kind === 'import-time') {
        suiteLimit ??= this.suiteTimeoutSeconds();
        const collect = this.collectJob(target, suiteLimit);
        const run =
          route.candidates.length === 0 ? null : this.job({ patches: [target.patch], tests: route.candidates });
        importTime.push({ target, candidates: route.candidates, collect, run, results: new Map() });
      } else {
        suiteLimit ??= this.suiteTimeoutSeconds();
        wholeSuite.push({ target, job: this.wholeSuiteJob(target, suiteLimit) });
      }
    }
    const durations = new Map(baseline.tests.map((test) => [test.nodeId, test.seconds]));
    const costed = inProcess.map((entry) => ({
      item: entry,
      cost: TARGET_OVERHEAD_SECONDS + entry.candidates.reduce((sum, nodeId) => sum + (durations.get(nodeId) ?? 0), 0),
    }));
    const capacity = this.options.batchSeconds ?? DEFAULT_BATCH_SECONDS;
    const batches = packBatches(costed, { workers: this.executor.parallelism, maxPerBatch: MAX_BATCH_SIZE, capacity });
    const batchJobs = batches.map((batch) => this.batchJob(batch));
    const jobsOf = (entry: ImportTimeEntry): RunJob[] =>
      entry.run === null ? [entry.collect] : [entry.collect, entry.run];
    const importJobs = importTime.flatMap(jobsOf);
    // Whole-suite runs are the longest: they start first so that the pool ends evenly.
    const jobs = [...wholeSuite.map((entry) => entry.job), ...importJobs, ...batchJobs];
    const wholeSuiteByJob = new Map(wholeSuite.map((entry) => [entry.job, entry.target]));
    const importByJob = new Map(importTime.flatMap((entry) => jobsOf(entry).map((job) => [job, entry] as const)));
    const batchByJob = new Map(batchJobs.map((job, index) => [job, batches[index] ?? []]));
    const answers: InProcessAnswer[] = [];
    const fallback: { target: MutationTarget; candidates: readonly string[]; why: string }[] = [];
    const suiteFallback: { target: MutationTarget; why: string }[] = [];
    await this.runPhase('mutation', jobs, pending.length, async (job, result) => {
      const single = wholeSuiteByJob.get(job);
      if (single !== undefined) {
        await this.finish(results, this.patchedResult(single, 'all', result, baseline));
        return;
      }
      const imported = importByJob.get(job);
      if (imported !== undefined) {
        imported.results.set(job, result);
        const collected = imported.results.get(imported.collect);
        const ran = imported.run === null ? null : imported.results.get(imported.run);
        if (collected === undefined || ran === undefined) return;
        const answer = this.importTimeResult(imported.target, imported.candidates, collected, ran, baseline);
        if (answer.kind === 'whole-suite') suiteFallback.push({ target: imported.target, why: answer.why });
        else await this.finish(results, answer.result);
        return;
      }
      const batch = batchByJob.get(job) ?? [];
      const run = result.runs[0];
      const records = new Map(mutationRecords(run).map((record) => [record.id, record]));
      for (const { target, candidates } of batch) {
        const record = records.get(target.id);
        if (record === undefined) {
          fallback.push({
            target,
            candidates,
            why: `its in-process batch ended before it (${
              run === undefined
                ? 'not run'
                : `${run.status}: \
${tailLines(run.log, 3, 'trimmed').join(' | ')}`
            })`,
          });
        } else if (record.status === 'unswappable') {
          fallback.push({ target, candidates, why: `in-process swap impossible: ${record.reason}` });
        } else if ([...record.outcomes.values()].includes('missing')) {
          fallback.push({ target, candidates, why: 'a candidate test was not collected in the batch process' });
        } else {
          const tests = relevantTests(candidates, record.outcomes, baseline.passing);
          answers.push({ target, candidates, tests });
          await this.finish(results, this.answer(target, tests, 'in-process', candidates.length, record.seconds));
        }
      }
    });
    for (const { target, why } of [...fallback, ...suiteFallback]) {
      this.options.onEvent?.({ kind: 'fallback', id: target.id, qualname: target.qualname, why });
    }
    if (fallback.length + suiteFallback.length > 0) {
      const limit = suiteFallback.length === 0 ? 0 : (suiteLimit ?? this.suiteTimeoutSeconds());
      // The whole-suite runs first, as in the mutation phase.
      const entries: { job: RunJob; target: MutationTarget; tests: readonly string[] | 'all'; why: string }[] = [
        ...suiteFallback.map(({ target, why }) => ({
          job: this.wholeSuiteJob(target, limit),
          target,
          tests: 'all' as const,
          why,
        })),
        ...fallback.map(({ target, candidates, why }) => {
          const job = this.job({ patches: [target.patch], tests: candidates });
          return { job, target, tests: candidates, why };
        }),
      ];
      const byJob = new Map(entries.map((entry) => [entry.job, entry]));
      await this.runPhase(
        'fallback',
        entries.map((entry) => entry.job),
        entries.length,
        async (job, result) => {
          const entry = byJob.get(job);
          if (entry === undefined) return;
          const outcome = this.patchedResult(entry.target, entry.tests, result, baseline);
          await this.finish(
            results,
            outcome.status === 'no-tests' ? { ...outcome, reason: `${outcome.reason ?? ''} (${entry.why})` } : outcome,
          );
        },
      );
    }
    return answers;
  }

  /** Each in-process answer again, in a new process with the file patched: the proof that the swap is sound. */
  async confirm(
    answers: readonly InProcessAnswer[],
    baseline: Baseline,
    results: Map<string, FunctionMining>,
  ): Promise<void> {
    const jobs = answers.map(({ target, candidates }) => this.job({ patches: [target.patch], tests: candidates }));
    const byJob = new Map(jobs.map((job, index) => [job, answers[index]]));
    await this.runPhase('confirm', jobs, answers.length, async (job, result) => {
      const answer = byJob.get(job);
      if (answer === undefined) return;
      this.confirmed++;
      const fresh = this.patchedResult(answer.target, answer.candidates, result, baseline);
      if (fresh.status !== 'error' && sameTests(fresh.tests, answer.tests)) return;
      this.mismatches.push({
        id: answer.target.id,
        qualname: answer.target.qualname,
        inProcess: answer.tests,
        freshProcess: fresh.tests,
      });
      // A fresh process is the reference the swap must match; when they differ, it is the answer kept.
      if (fresh.status !== 'error') await this.options.store.saveFunction(this.options.mode, fresh);
      results.set(
        answer.target.id,
        fresh.status === 'error' ? (results.get(answer.target.id) as FunctionMining) : fresh,
      );
    });
  }

  /** The whole suite with the mutation in the file: REPOCOD's method. */
  private wholeSuiteJob(target: MutationTarget, limitSeconds: number): RunJob {
    return this.job({ patches: [target.patch], tests: 'all', timeoutSeconds: limitSeconds });
  }

  /** The whole suite collected with the mutation in the file, the collected node ids as its artifact. */
  private collectJob(target: MutationTarget, limitSeconds: number): RunJob {
    return {
      repository: this.prepared.entry.name,
      patches: [target.patch],
      pytestArgs: [...this.pytestArgs, '--collect-only', '-q'],
      tests: 'all',
      plugins: ['repocod_collect'],
      timeoutSeconds: limitSeconds,
    };
  }

  /**
   * An import-time function's relevant tests: the passing tests its mutation makes uncollectable
   * (a module that imports it, a parametrisation that calls it), and the candidates (tests whose own
   * run executes the body) that fail with the mutation in the file. This equals the whole suite's
   * answer when the mutation's exception, raised at import, reaches pytest: it can then break a test
   * only by breaking a module's import or by running inside the test. When the suite collects in full
   * with the mutation, the exception was swallowed on the way (or raised outside collection), the
   * module's state may differ in ways no test context shows, and the whole suite runs instead.
   */
  private importTimeResult(
    target: MutationTarget,
    candidates: readonly string[],
    collect: JobResult,
    run: JobResult | null,
    baseline: Baseline,
  ): { kind: 'answer'; result: FunctionMining } | { kind: 'whole-suite'; why: string } {
    if (collect.patchError !== null) {
      const reason = `the mutation patch does not apply: ${collect.patchError}`;
      return { kind: 'answer', result: this.failure(target, 'fresh-process', reason) };
    }
    const collectRun = collect.runs[0];
    if (collectRun === undefined || (collectRun.status !== 'ok' && collectRun.status !== 'collection-error')) {
      const status = collectRun?.status ?? 'no run';
      return { kind: 'whole-suite', why: `the collection run with the mutation ended with ${status}` };
    }
    const collected = new Set((collectRun.artifact ?? '').split('\n').filter((line) => line !== ''));
    const uncollectable = [...baseline.passing].filter((nodeId) => !collected.has(nodeId));
    if (collectRun.status === 'ok' && uncollectable.length === 0) {
      const why = 'the suite collects in full with the mutation: its exception at import time did not reach pytest';
      return { kind: 'whole-suite', why };
    }
    const seconds = collectRun.durationSeconds + (run?.runs[0]?.durationSeconds ?? 0);
    if (run === null) {
      const result = this.answer(target, [...uncollectable].sort(), 'fresh-process', baseline.passing.size, seconds);
      return { kind: 'answer', result };
    }
    const candidateResult = this.patchedResult(target, candidates, run, baseline);
    if (candidateResult.status === 'error') return { kind: 'answer', result: candidateResult };
    const tests = [...new Set([...uncollectable, ...candidateResult.tests])].sort();
    return { kind: 'answer', result: this.answer(target, tests, 'fresh-process', baseline.passing.size, seconds) };
  }

  private batchJob(batch: readonly InProcessEntry[]): RunJob {
    const tests = [...new Set(batch.flatMap((entry) => entry.candidates))].sort();
    return this.job({
      tests,
      plugins: ['repocod_mutate'],
      pluginInput: mutationPlan(this.prepared.entry.packageRoot, batch),
      timeoutSeconds: this.prepared.entry.timeoutSeconds * Math.max(1, batch.length),
    });
  }

  /** A mutation run (patched, or driven by the in-process plugin). */
  private job(job: Omit<RunJob, 'repository' | 'patches' | 'pytestArgs'> & { patches?: readonly string[] }): RunJob {
    return { repository: this.prepared.entry.name, patches: [], pytestArgs: this.mutationArgs, ...job };
  }

  /** A run at the base commit: a baseline run or the coverage run. */
  private referenceJob(job: Omit<RunJob, 'repository' | 'patches' | 'pytestArgs'>): RunJob {
    return { repository: this.prepared.entry.name, patches: [], pytestArgs: this.pytestArgs, ...job };
  }

  /**
   * A run with the mutation patched into the file (a fresh process on the candidates, or the whole suite) as a
   * function's result.
   */
  private patchedResult(
    target: MutationTarget,
    tests: readonly string[] | 'all',
    result: JobResult,
    baseline: Baseline,
  ): FunctionMining {
    const method: MiningMethod = tests === 'all' ? 'whole-suite' : 'fresh-process';
    const run = result.runs[0];
    const seconds = run?.durationSeconds ?? 0;
    if (result.patchError !== null)
      return this.failure(target, method, `the mutation patch does not apply: ${result.patchError}`);
    if (run === undefined) return this.failure(target, method, 'no run was made');
    if (run.status !== 'ok' && run.status !== 'collection-error')
      return this.failure(
        target,
        method,
        `${run.status} (exit code ${run.exitCode ?? 'none'}): ${tailLines(run.log, 5, 'trimmed').join('\n')}`,
        seconds,
      );
    const outcomes = new Map<string, TestOutcome>(run.results.map((test) => [test.nodeId, test.outcome]));
    const candidates = tests === 'all' ? [...baseline.passing] : tests;
    return this.answer(
      target,
      relevantTests(candidates, outcomes, baseline.passing),
      method,
      candidates.length,
      seconds,
    );
  }

  private answer(
    target: MutationTarget,
    tests: readonly string[],
    method: MiningMethod,
    candidates: number,
    seconds: number,
  ): FunctionMining {
    return {
      id: target.id,
      qualname: target.qualname,
      status: tests.length > 0 ? 'tests' : 'no-tests',
      tests,
      reason:
        tests.length > 0
          ? null
          : `none of the ${candidates} passing test${candidates === 1 ? '' : 's'} that run it fails when its body is \
removed`,
      method,
      candidates,
      seconds,
    };
  }

  private failure(target: MutationTarget, method: MiningMethod, reason: string, seconds = 0): FunctionMining {
    return {
      id: target.id,
      qualname: target.qualname,
      status: 'error',
      tests: [],
      reason,
      method,
      candidates: 0,
      seconds,
    };
  }

  private async finish(results: Map<string, FunctionMining>, result: FunctionMining): Promise<void> {
    results.set(result.id, result);
    await this.options.store.saveFunction(this.options.mode, result);
    this.done++;
    this.options.onEvent?.({ kind: 'function-done', result, done: this.done, total: this.total });
  }

  /** A run that finished on its own; a baseline or coverage run that did not means the suite cannot run here. */
  private usableRun(result: JobResult, what: string): PytestRun {
    const run = result.runs[0];
    if (result.patchError !== null || run === undefined || (run.status !== 'ok' && run.status !== 'collection-error')) {
      const status = result.patchError !== null ? 'patch-error' : (run?.status ?? 'not run');
      throw new RepocodError(
        'tests-cannot-run',
        `${this.prepared.entry.name}: ${what} at the base commit ended with ${status} (exit code \
${run?.exitCode ?? 'none'}); mining needs the suite to run. The end of its \
log:\n${tailLines(run?.log ?? result.patchError ?? '', ERROR_LOG_LINES, 'trimmed').join('\n')}`,
      );
    }
    return run;
  }

  /** Runs one phase's jobs on the executor, handing each result over as it finishes. */
  private async runPhase(
    phase: MiningPhase,
    jobs: readonly RunJob[],
    functions: number,
    onResult?: (job: RunJob, result: JobResult) => Promise<void>,
    resumed = 0,
  ): Promise<{ job: RunJob; result: JobResult }[]> {
    if (jobs.length === 0) return [];
    const started = performance.now();
    this.options.onEvent?.({ kind: 'phase-start', phase, jobs: jobs.length, resumed, functions });
    const finished: { job: RunJob; result: JobResult }[] = [];
    let processes = 0;
    let busySeconds = 0;
    let testExecutions = 0;
    for await (const { index, result } of this.executor.run(jobs)) {
      const job = jobs[index] as RunJob;
      processes += result.runs.length;
      busySeconds += result.runs.reduce((sum, run) => sum + run.durationSeconds, 0);
      testExecutions += result.runs.reduce(
        (sum, run) =>
          sum +
          (job.plugins?.includes('repocod_mutate') === true
            ? mutationRecords(run).reduce(
                (total, record) => total + (record.status === 'ok' ? record.outcomes.size : 0),
                0,
              )
            : run.results.filter((test) => test.outcome !== 'missing').length),
        0,
      );
      finished.push({ job, result });
      await onResult?.(job, result);
      this.options.onEvent?.({ kind: 'job-done', phase, done: finished.length, total: jobs.length });
    }
    const stats = { phase, wallSeconds: (performance.now() - started) / 1000, processes, busySeconds, testExecutions };
    this.phases.push(stats);
    this.options.onEvent?.({ kind: 'phase-done', stats });
    return finished;
  }
}

/** The in-process plugin's records of a batch run; none when the run wrote nothing. */
function mutationRecords(run: PytestRun | undefined): InProcessRecord[] {
  return run === undefined || run.artifact === null ? [] : parseMutationArtifact(run.artifact, 'a mutation batch');
}

function sameTests(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((test, index) => test === b[index]);
}

export type { BaselineTest };
