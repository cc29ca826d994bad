import { tailLines } from '@repocod/core';
import type { JobResult, RunJob } from '@repocod/runner';
import type { Baseline } from './baseline.js';
import { packBatches } from './batches.js';
import type { CoverageEntry, Route } from './coverage-map.js';
import { routeFunction } from './coverage-map.js';
import type { FreshProcessFallback, WholeSuiteFallback } from './fallback-phase.js';
import { functionAnswer, patchedResult } from './function-result.js';
import type { MutationEntry } from './harness-plans.js';
import type { ImportTimeEntry } from './import-time.js';
import { importTimeJobs, importTimeResult } from './import-time.js';
import type { MiningRun } from './mining-run.js';
import { mutationRecords } from './mutation-artifact.js';
import type { MutationTarget } from './mutation-target.js';
import { relevantTests } from './relevant-tests.js';

const DEFAULT_BATCH_SECONDS = 60;
/** However fast their tests, no more functions than this wait for one process to end before they are stored. */
const MAX_BATCH_SIZE = 200;
/** A nominal cost per target so that functions with very fast tests still spread over the batches. */
const TARGET_OVERHEAD_SECONDS = 0.05;

/** A function answered in process: the confirmation runs it again in a fresh process. */
export interface InProcessAnswer {
  readonly target: MutationTarget;
  readonly candidates: readonly string[];
  readonly tests: readonly string[];
}

/** What the mutation phase leaves to the next ones: its in-process answers and the functions it could not answer. */
export interface MutationOutcome {
  readonly answers: readonly InProcessAnswer[];
  readonly freshProcess: readonly FreshProcessFallback[];
  readonly wholeSuite: readonly WholeSuiteFallback[];
}

/** The pending targets by route, with their jobs; those no test runs are finished already. */
interface Routed {
  readonly wholeSuite: readonly { readonly target: MutationTarget; readonly job: RunJob }[];
  readonly inProcess: readonly MutationEntry[];
  readonly importTime: readonly ImportTimeEntry[];
}

/** What a batch run says of one of its targets: its in-process answer, or why it goes to a fresh process. */
type BatchOutcome =
  | { readonly kind: 'answer'; readonly answer: InProcessAnswer; readonly seconds: number }
  | { readonly kind: 'fallback'; readonly fallback: FreshProcessFallback };

/** Every pending target against its mutation, by the route its coverage gives (all whole-suite when exact). */
export async function mutate(
  run: MiningRun,
  pending: readonly MutationTarget[],
  baseline: Baseline,
  coverage: ReadonlyMap<string, CoverageEntry>,
): Promise<MutationOutcome> {
  const { jobs: build, phases, progress } = run;
  const { wholeSuite, inProcess, importTime } = await routeTargets(run, pending, baseline, coverage);
  const batches = packInProcess(run, inProcess, baseline);
  const batchJobs = batches.map((batch) => build.batch(batch));
  const importJobs = importTime.flatMap(importTimeJobs);
  // Whole-suite runs are the longest: they start first so that the pool ends evenly.
  const jobs = [...wholeSuite.map((entry) => entry.job), ...importJobs, ...batchJobs];
  const wholeSuiteByJob = new Map(wholeSuite.map((entry) => [entry.job, entry.target]));
  const importByJob = new Map(importTime.flatMap((entry) => importTimeJobs(entry).map((job) => [job, entry] as const)));
  const batchByJob = new Map(batchJobs.map((job, index) => [job, batches[index] ?? []]));
  const answers: InProcessAnswer[] = [];
  const freshProcess: FreshProcessFallback[] = [];
  const suiteFallback: WholeSuiteFallback[] = [];
  await phases.run('mutation', jobs, pending.length, async (job, result) => {
    const single = wholeSuiteByJob.get(job);
    if (single !== undefined) {
      await progress.finish(patchedResult(single, 'all', result, baseline));
      return;
    }
    const imported = importByJob.get(job);
    if (imported !== undefined) {
      imported.results.set(job, result);
      const collected = imported.results.get(imported.collect);
      const ran = imported.run === null ? null : imported.results.get(imported.run);
      if (collected === undefined || ran === undefined) return;
      const answer = importTimeResult(imported.target, imported.candidates, collected, ran, baseline);
      if (answer.kind === 'whole-suite') suiteFallback.push({ target: imported.target, why: answer.why });
      else await progress.finish(answer.result);
      return;
    }
    for (const outcome of readBatch(batchByJob.get(job) ?? [], result, baseline)) {
      if (outcome.kind === 'fallback') {
        freshProcess.push(outcome.fallback);
        continue;
      }
      const { target, candidates, tests } = outcome.answer;
      answers.push(outcome.answer);
      await progress.finish(functionAnswer(target, tests, 'in-process', candidates.length, outcome.seconds));
    }
  });
  return { answers, freshProcess, wholeSuite: suiteFallback };
}

/** Each pending target's route and jobs; a target no passing test runs is finished here, with no job. */
async function routeTargets(
  run: MiningRun,
  pending: readonly MutationTarget[],
  baseline: Baseline,
  coverage: ReadonlyMap<string, CoverageEntry>,
): Promise<Routed> {
  const { options, jobs: build, progress } = run;
  const wholeSuite: { target: MutationTarget; job: RunJob }[] = [];
  const inProcess: MutationEntry[] = [];
  const importTime: ImportTimeEntry[] = [];
  for (const target of pending) {
    const route: Route =
      options.mode === 'exact'
        ? { kind: 'whole-suite', why: 'exact mode' }
        : routeFunction(coverage.get(target.id), baseline.passing);
    if (route.kind === 'none') {
      await progress.finish({
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
      const collect = build.collect(target);
      const candidatesRun = route.candidates.length === 0 ? null : build.freshProcess(target, route.candidates);
      importTime.push({ target, candidates: route.candidates, collect, run: candidatesRun, results: new Map() });
    } else {
      wholeSuite.push({ target, job: build.wholeSuite(target) });
    }
  }
  return { wholeSuite, inProcess, importTime };
}

/** The in-process targets packed into batches by the baseline's durations of their candidates. */
function packInProcess(run: MiningRun, inProcess: readonly MutationEntry[], baseline: Baseline): MutationEntry[][] {
  const durations = new Map(baseline.tests.map((test) => [test.nodeId, test.seconds]));
  const costed = inProcess.map((entry) => ({
    item: entry,
    cost: TARGET_OVERHEAD_SECONDS + entry.candidates.reduce((sum, nodeId) => sum + (durations.get(nodeId) ?? 0), 0),
  }));
  const capacity = run.options.batchSeconds ?? DEFAULT_BATCH_SECONDS;
  return packBatches(costed, { workers: run.phases.parallelism, maxPerBatch: MAX_BATCH_SIZE, capacity });
}

/** What an in-process batch run says of each of its targets, in batch order. */
function readBatch(batch: readonly MutationEntry[], result: JobResult, baseline: Baseline): BatchOutcome[] {
  const batchRun = result.runs[0];
  const records = new Map(mutationRecords(batchRun).map((record) => [record.id, record]));
  return batch.map(({ target, candidates }): BatchOutcome => {
    const record = records.get(target.id);
    const fallback = (why: string): BatchOutcome => ({ kind: 'fallback', fallback: { target, candidates, why } });
    if (record === undefined)
      return fallback(
        `its in-process batch ended before it (${
          batchRun === undefined
            ? 'not run'
            : `${batchRun.status}: ${tailLines(batchRun.log, 3, 'trimmed').join(' | ')}`
        })`,
      );
    if (record.status === 'unswappable') return fallback(`in-process swap impossible: ${record.reason}`);
    if ([...record.outcomes.values()].includes('missing'))
      return fallback('a candidate test was not collected in the batch process');
    const tests = relevantTests(candidates, record.outcomes, baseline.passing);
    return { kind: 'answer', answer: { target, candidates, tests }, seconds: record.seconds };
  });
}
