import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { PROSPECTIVE_TASK_COLUMNS } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import { changedSinceCutoff } from '../candidates/body-dates.js';
import { candidatesUnderMode } from '../candidates/candidate-selection.js';
import { listPythonFiles, loadPythonParser } from '@repocod/python';
import type { PreparedRepository } from '@repocod/runner';
import { catalogName } from '@repocod/runner';
import type { SelectionSpec } from '@repocod/tasks';
import { buildRepositoryIndex } from '@repocod/tasks';
import { classifyFunctions, levelModeOf } from '../candidates/classify-functions.js';
import type { LiteCandidate, LiteMargin, LiteOutcome, LitePlan } from './lite-plan.js';
import { DEFAULT_LITE_MARGIN, liteKey, planLiteMining } from './lite-plan.js';
import type { MineStepEvent, MineSummary, MiningSettings } from '../steps/mine.js';
import { mineStep } from '../steps/mine.js';
import { miningKeyOf } from '../steps/mining-key.js';
import type { PreparedRepositories } from '../steps/prepare.js';
import { preparedInstanceIds } from '../records/task-identity.js';

/**
 * Lite-first mining: the relevant tests of the candidates that can make the Lite selection, and of no
 * others. Every candidate's level and score are known before any test runs (static classification,
 * the spec's score over the extracted lines), so candidates are mined in rounds, best first per level
 * across every repository, until the planner (lite-plan.ts) says each level has its quota plus a
 * margin with nothing left unmined above the cut. The baseline runs in each repository's first round
 * (and its traced run maps every candidate, so later rounds go straight to the mutations).
 */

/**
 * What Lite-first mining takes: the repositories, each prepared and extracted (liteMining asks
 * `prepared` for each), mining's settings for every one of them, the spec and the margin.
 */
export interface LiteMiningOptions extends MiningSettings {
  readonly projectRoot: string;
  readonly repositories: readonly string[];
  readonly spec: SelectionSpec;
  /** Default 20% of each quota. */
  readonly margin?: LiteMargin;
  /**
   * Whether a function whose stored mining is an error is mined again (default true: an error may be the
   * machine's). False takes it as mined without a task: the flow's check for more rounds, which must not
   * ask again and again for a function whose every run fails the same way (sympy's `_ask` times out).
   */
  readonly retryErrors?: boolean;
  /**
   * Mines one repository's share of a round; null drops the repository (its failure was reported).
   * Default: mineStep with these settings, failures thrown.
   */
  readonly mineRound?: (request: LiteRoundRequest) => Promise<MineSummary | null>;
  /**
   * Told of a repository whose candidates could not be ranked (preparing it, dating its bodies, classifying them):
   * the repository is then dropped and the others go on, as when mineRound returns null. Without it the error is
   * thrown, and no repository is mined.
   */
  readonly onRankingError?: (repository: string, error: unknown) => void;
  readonly onEvent?: (event: LiteMiningEvent) => void;
}

export interface LiteRoundRequest {
  readonly repository: string;
  readonly prepared: PreparedRepository;
  readonly round: number;
  /** What mineStep takes to mine exactly these candidates (and map every candidate's coverage). */
  readonly mineOptions: { readonly onlyFunctionIds: readonly string[]; readonly traceAll: true };
  readonly functions: number;
}

export type LiteMiningEvent =
  | { readonly kind: 'lite-ranked'; readonly repository: string; readonly candidates: number; readonly ranked: number }
  | {
      readonly kind: 'lite-round';
      readonly round: number;
      readonly plan: LitePlan;
      readonly repositories: readonly string[];
    }
  | { readonly kind: 'lite-mine'; readonly round: number; readonly repository: string; readonly event: MineStepEvent }
  | {
      readonly kind: 'lite-mined';
      readonly round: number;
      readonly repository: string;
      readonly summary: MineSummary;
    };

export interface LiteMiningSummary {
  /** Rounds that mined something. */
  readonly rounds: number;
  /** Candidates the spec's filter keeps, over every repository. */
  readonly candidates: number;
  /** Of those, mined (now or before). */
  readonly mined: number;
  /** Mined by this run. */
  readonly minedNow: number;
  /** The planner's last word: per level found/quota, cut-off, and whether it is done. */
  readonly plan: LitePlan;
  readonly repositories: readonly LiteRepositorySummary[];
  /** Repositories dropped because their mining failed (mineRound returned null). */
  readonly dropped: readonly string[];
}

export interface LiteRepositorySummary {
  readonly repository: string;
  /** Candidates of the repository (before the spec's filter). */
  readonly candidates: number;
  readonly ranked: number;
  readonly mined: number;
  readonly minedNow: number;
  /** Mined with relevant tests (their tasks' checks passed or not). */
  readonly withTests: number;
}

export async function liteMining(
  catalog: Catalog,
  prepared: PreparedRepositories,
  options: LiteMiningOptions,
): Promise<LiteMiningSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const margin = options.margin ?? DEFAULT_LITE_MARGIN;
  const ranked: LiteCandidate[] = [];
  const outcomes = new Map<string, LiteOutcome>();
  const counts = new Map<string, { candidates: number; ranked: number; minedNow: number }>();
  const dropped = new Set<string>();
  for (const repository of options.repositories) {
    let rankedHere: Awaited<ReturnType<typeof rankCandidates>>;
    let ready: PreparedRepository;
    try {
      ready = await prepared.get(repository);
      rankedHere = await rankCandidates(catalog, ready, options.spec, options);
    } catch (error) {
      if (options.onRankingError === undefined) throw error;
      options.onRankingError(repository, error);
      dropped.add(repository);
      continue;
    }
    const { candidates, all } = rankedHere;
    ranked.push(...candidates);
    counts.set(repository, { candidates: all, ranked: candidates.length, minedNow: 0 });
    for (const [key, outcome] of await storedOutcomes(catalog, ready, options)) outcomes.set(key, outcome);
    emit({ kind: 'lite-ranked', repository, candidates: all, ranked: candidates.length });
  }

  const mineRound = options.mineRound ?? ((request: LiteRoundRequest) => defaultRound(catalog, options, request, emit));
  let rounds = 0;
  for (;;) {
    const plan = planLiteMining({
      candidates: ranked.filter((fn) => !dropped.has(fn.repository)),
      outcomes,
      quotas: options.spec.quotas,
      margin,
    });
    if (plan.done) break;
    rounds++;
    const byRepository = new Map<string, string[]>();
    // In the order the repositories were given, not the plan's: the curator decides which comes first
    // (on a small machine, the one whose rebuild is wanted first, since a big suite takes hours).
    for (const repository of options.repositories) if (!dropped.has(repository)) byRepository.set(repository, []);
    for (const fn of plan.next) byRepository.get(fn.repository)?.push(fn.functionId);
    for (const [repository, functionIds] of byRepository) if (functionIds.length === 0) byRepository.delete(repository);
    emit({ kind: 'lite-round', round: rounds, plan, repositories: [...byRepository.keys()] });
    for (const [repository, functionIds] of byRepository) {
      const summary = await mineRound({
        repository,
        prepared: await prepared.get(repository),
        round: rounds,
        mineOptions: { onlyFunctionIds: functionIds, traceAll: true },
        functions: functionIds.length,
      });
      if (summary === null) {
        dropped.add(repository);
        continue;
      }
      const results = new Map(summary.functions.map((fn) => [fn.id, fn.status] as const));
      // A planned function mining gave no answer for counts as an error: it is not planned again.
      for (const functionId of functionIds)
        outcomes.set(liteKey(repository, functionId), results.get(functionId) ?? 'error');
      const count = counts.get(repository);
      if (count !== undefined) count.minedNow += functionIds.length;
    }
  }
  const kept = ranked.filter((fn) => !dropped.has(fn.repository));
  const plan = planLiteMining({ candidates: kept, outcomes, quotas: options.spec.quotas, margin });
  const minedOf = (fns: readonly LiteCandidate[]): number =>
    fns.filter((fn) => outcomes.has(liteKey(fn.repository, fn.functionId))).length;
  return {
    rounds,
    candidates: kept.length,
    mined: minedOf(kept),
    minedNow: [...counts.values()].reduce((sum, count) => sum + count.minedNow, 0),
    plan,
    dropped: [...dropped],
    repositories: options.repositories.map((repository) => {
      const ofRepository = ranked.filter((fn) => fn.repository === repository);
      const count = counts.get(repository) ?? { candidates: 0, ranked: 0, minedNow: 0 };
      const withTests = ofRepository.filter((fn) =>
        ['tests', 'failed-checks'].includes(outcomes.get(liteKey(fn.repository, fn.functionId)) ?? ''),
      ).length;
      return { repository, ...count, mined: minedOf(ofRepository), withTests };
    }),
  };
}

async function defaultRound(
  catalog: Catalog,
  options: LiteMiningOptions,
  request: LiteRoundRequest,
  emit: (event: LiteMiningEvent) => void,
): Promise<MineSummary> {
  const summary = await mineStep(catalog, request.prepared, {
    mode: options.mode,
    repeat: options.repeat,
    confirm: options.confirm,
    tracebacks: options.tracebacks,
    shardFiles: options.shardFiles,
    candidates: options.candidates,
    extraction: options.extraction,
    executor: options.executor,
    changedSince: options.changedSince,
    datedAgainst: options.datedAgainst,
    projectRoot: options.projectRoot,
    ...request.mineOptions,
    onEvent: (event) => emit({ kind: 'lite-mine', round: request.round, repository: request.repository, event }),
  });
  emit({ kind: 'lite-mined', round: request.round, repository: request.repository, summary });
  return summary;
}

/**
 * A repository's candidates as the planner sees them: the level static classification gives, the
 * instance id the tasks stage will give, and the spec's score and filter over those prospective tasks.
 */
export async function rankCandidates(
  catalog: Catalog,
  prepared: PreparedRepository,
  spec: SelectionSpec,
  {
    candidates: mode,
    extraction,
    changedSince,
    datedAgainst,
  }: Pick<MiningSettings, 'candidates' | 'extraction' | 'changedSince' | 'datedAgainst'> = {},
): Promise<{ candidates: LiteCandidate[]; all: number }> {
  // Candidates are named by the flow's repository name; the catalog keys an era's rows by its own (catalog-name.ts).
  const repository = prepared.entry.name;
  const inCatalog = catalogName(prepared.entry);
  const underMode = await candidatesUnderMode(
    await catalog.functions(inCatalog, { candidatesOnly: true }),
    mode,
    prepared.checkout.path,
    extraction?.testCode,
  );
  const functions =
    changedSince === undefined
      ? underMode
      : await changedSinceCutoff(catalog, prepared, underMode, changedSince, datedAgainst);
  if (functions.length === 0) return { candidates: [], all: 0 };
  const root = prepared.checkout.path;
  const texts = new Map(listPythonFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const levels = classifyFunctions(buildRepositoryIndex(await loadPythonParser(), texts), functions);
  // A function competes in the quota of its level under the selection's mode.
  const levelMode = levelModeOf(prepared.entry, spec.levels);
  const ids = preparedInstanceIds(prepared, functions);
  const prospective = functions.map((fn) => ({
    functionId: fn.functionId,
    instanceId: ids.get(fn.functionId) as string,
    level: levels.get(fn.functionId)?.levels[levelMode].level ?? 'self-contained',
  }));
  let scored: Awaited<ReturnType<Catalog['scoreProspectiveTasks']>>;
  try {
    scored = await catalog.scoreProspectiveTasks(inCatalog, spec, prospective);
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `the selection spec's score (${spec.score}) or filter (${spec.filter}) cannot rank candidates before mining: ` +
        `Lite-first mining can use only ` +
        `the columns ${PROSPECTIVE_TASK_COLUMNS.join(', ')}; fix the spec, or mine every candidate (--all). DuckDB ` +
        `said: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const byId = new Map(prospective.map((task) => [task.functionId, task]));
  const candidates = scored.flatMap((row): LiteCandidate[] => {
    const task = byId.get(row.functionId);
    if (!row.kept || task === undefined) return [];
    return [
      {
        repository,
        functionId: row.functionId,
        level: task.level,
        score: row.score,
        tieBreak: tieBreakKey(row.solutionTokens, task.instanceId),
      },
    ];
  });
  return { candidates, all: functions.length };
}

/** The selection's tie-break as one ascending text: solution tokens descending, then instance id. */
function tieBreakKey(solutionTokens: number, instanceId: string): string {
  return `${String(999_999_999 - Math.min(solutionTokens, 999_999_999)).padStart(9, '0')} ${instanceId}`;
}

/**
 * What is already known of a repository's candidates under this mining key: its stored results (an
 * error counts as not mined, so this run tries it once more, as `repocod mine` does) and the tasks of
 * this base commit that failed their checks (they will not be picked).
 */
async function storedOutcomes(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: LiteMiningOptions,
): Promise<Map<string, LiteOutcome>> {
  const repository = prepared.entry.name;
  const inCatalog = catalogName(prepared.entry);
  const miningKey = miningKeyOf(prepared, options.repeat, options.tracebacks);
  const outcomes = new Map<string, LiteOutcome>();
  for (const row of await catalog.relevantTests(inCatalog, { miningKey, mode: options.mode })) {
    if (row.status !== 'error' || options.retryErrors === false)
      outcomes.set(liteKey(repository, row.functionId), row.status);
  }
  for (const task of await catalog.tasks(inCatalog)) {
    const key = liteKey(repository, task.functionId);
    if (!task.checksPassed && task.baseCommit === prepared.checkout.baseCommit && outcomes.get(key) === 'tests')
      outcomes.set(key, 'failed-checks');
  }
  return outcomes;
}
