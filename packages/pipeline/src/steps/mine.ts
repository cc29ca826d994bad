import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogFunction } from '@repocod/catalog';
import type { CandidateModeName } from '@repocod/core';
import { RepocodError, resolveRepeat } from '@repocod/core';
import type { MiningEvent, MiningMode, MiningSummary, MiningTracebacks, MutationTarget } from '@repocod/mining';
import { mineRepository, mutationTarget } from '@repocod/mining';
import type { ExecutorFactory, PreparedRepository } from '@repocod/runner';
import { baselineRerunsOf, baselineRunsOf, catalogName, localExecutor } from '@repocod/runner';
import { changedSinceCutoff } from '../candidates/body-dates.js';
import type { ReleaseDatings } from '../candidates/dated-against.js';
import { candidatesUnderMode } from '../candidates/candidate-selection.js';
import { type ReferenceFunctions, referenceFunctions } from '../reference/reference-functions.js';
import { functionKey } from '../candidates/mining-outcomes.js';
import type { ExtractionConfig } from './extractor-fingerprint.js';
import { miningKeyOf } from './mining-key.js';
import { CatalogMiningStore } from './mining-store.js';

/** How a repository's functions are mined: the settings every round of one mining shares. */
export interface MiningSettings {
  readonly mode: MiningMode;
  /** Baseline runs (default 3). */
  readonly repeat?: number;
  /** Confirm every in-process answer in a fresh process (see mineRepository). */
  readonly confirm?: boolean;
  /** How mutation runs format failures (default native; see MiningTracebacks). */
  readonly tracebacks?: MiningTracebacks;
  /** Test files per shard of the baseline's whole-suite runs (default DEFAULT_SHARD_FILES). */
  readonly shardFiles?: number;
  /** Which candidates to mine (see CANDIDATE_MODES); default `docstring`, all of them. */
  readonly candidates?: CandidateModeName;
  /** The extraction settings the checkout was extracted with: its testCode names the tests' folders. */
  readonly extraction?: ExtractionConfig;
  /** Where the runner's jobs run (default: the local pool on the repository's worktrees). */
  readonly executor?: ExecutorFactory;
  /**
   * Only the candidates whose body was written or changed after this cutoff (UTC, from runner's parseChangedSince):
   * `--changed-since`, for a version of code newer than a model's training.
   */
  readonly changedSince?: string;
  /**
   * The repositories whose bodies are dated by release diff against an older release (`--dated-against`), not by
   * git blame: a source without history (candidates/dated-against.ts).
   */
  readonly datedAgainst?: ReleaseDatings;
}

export interface MineStepOptions extends MiningSettings {
  /** The project the reference's rows are read in (with `reference`). */
  readonly projectRoot: string;
  /** Only these functions: qualnames, or `file::qualname` when a qualname repeats. */
  readonly only?: readonly string[];
  /** Only these functions, by function id (Lite-first mining's rounds); with `only`, the functions of both. */
  readonly onlyFunctionIds?: readonly string[];
  /**
   * Map the coverage of every candidate in the traced baseline run, not only of those mined now (Lite-first mining).
   */
  readonly traceAll?: boolean;
  /**
   * A reference's name (`repocod reference`): mine exactly the functions its rows of this repository
   * resolve to, candidates of ours or not (the candidate mode does not apply).
   */
  readonly reference?: string;
  readonly onEvent?: (event: MineStepEvent) => void;
}

/** Before mining's own events: how many functions it mines. */
export type MineStepEvent = { readonly kind: 'targets'; readonly targets: number } | MiningEvent;

export interface MineSummary extends MiningSummary {
  readonly baseCommit: string;
  readonly miningKey: string;
  readonly workers: number;
  /** Candidates of the repository (before --only): a reference's functions with --reference. */
  readonly candidates: number;
  /** Functions mined now or found in the catalog: the candidates --only keeps. */
  readonly targets: number;
  /** With --reference: its rows of the repository and those that resolve to no function. */
  readonly reference: ReferenceFunctions | null;
}

/**
 * The relevant tests of a prepared and extracted repository's candidates (or of a reference's functions),
 * stored in the catalog as each finishes.
 */
export async function mineStep(
  catalog: Catalog,
  prepared: PreparedRepository,
  options: MineStepOptions,
): Promise<MineSummary> {
  const name = catalogName(prepared.entry);
  const reference =
    options.reference === undefined
      ? null
      : await referenceFunctions(catalog, options.reference, prepared.entry, options.projectRoot);
  const underMode =
    reference === null
      ? await candidatesUnderMode(
          await catalog.functions(name, { candidatesOnly: true }),
          options.candidates,
          prepared.checkout.path,
          options.extraction?.testCode,
        )
      : (await catalog.functions(name)).filter((fn) => reference.keys.has(functionKey(fn)));
  const candidates =
    options.changedSince === undefined
      ? underMode
      : await changedSinceCutoff(catalog, prepared, underMode, options.changedSince, options.datedAgainst);
  const chosen = chooseFunctions(candidates, options, name);
  const targets = mutationTargets(chosen, prepared.checkout.path);
  const chosenIds = new Set(chosen.map((fn) => fn.functionId));
  const traceAlso =
    options.traceAll === true
      ? mutationTargets(
          candidates.filter((fn) => !chosenIds.has(fn.functionId)),
          prepared.checkout.path,
        )
      : undefined;
  options.onEvent?.({ kind: 'targets', targets: targets.length });
  const repeat = baselineRunsOf(prepared.entry, resolveRepeat(options.repeat));
  const tracebacks = options.tracebacks ?? 'native';
  const miningKey = miningKeyOf(prepared, repeat, tracebacks);
  const executor = (options.executor ?? localExecutor)(prepared);
  const summary = await mineRepository(prepared, executor, targets, {
    mode: options.mode,
    repeat,
    reruns: baselineRerunsOf(prepared.entry),
    confirm: options.confirm,
    tracebacks,
    shardFiles: options.shardFiles,
    traceAlso,
    store: new CatalogMiningStore(catalog, prepared, miningKey),
    onEvent: options.onEvent,
  });
  return {
    ...summary,
    baseCommit: prepared.checkout.baseCommit,
    miningKey,
    workers: executor.parallelism,
    candidates: candidates.length,
    targets: targets.length,
    reference,
  };
}

function chooseFunctions(
  candidates: readonly CatalogFunction[],
  options: Pick<MineStepOptions, 'only' | 'onlyFunctionIds'>,
  repository: string,
): CatalogFunction[] {
  if (options.onlyFunctionIds === undefined) return selectFunctions(candidates, options.only, repository);
  const ids = new Set(options.onlyFunctionIds);
  const byName =
    options.only === undefined || options.only.length === 0
      ? []
      : selectFunctions(candidates, options.only, repository);
  for (const fn of byName) ids.add(fn.functionId);
  return candidates.filter((fn) => ids.has(fn.functionId));
}

/** The candidates named by --only (all without it); a name that matches nothing is an error that lists near names. */
export function selectFunctions(
  candidates: readonly CatalogFunction[],
  only: readonly string[] | undefined,
  repository: string,
): CatalogFunction[] {
  if (only === undefined || only.length === 0) return [...candidates];
  const chosen = new Set<CatalogFunction>();
  for (const name of only) {
    const matches = candidates.filter((fn) => fn.qualname === name || `${fn.file}::${fn.qualname}` === name);
    if (matches.length === 0) {
      const near = candidates.filter((fn) => isNear(fn.qualname, name)).slice(0, 5);
      throw new RepocodError(
        'usage',
        `--only ${name}: no candidate function of ${repository} has that qualified name` +
          (near.length > 0
            ? `; did you mean ${near.map((fn) => `${fn.file}::${fn.qualname}`).join(', ')}?`
            : '; `repocod sql "select file, qualname from functions where is_candidate"` lists them'),
      );
    }
    for (const fn of matches) chosen.add(fn);
  }
  return candidates.filter((fn) => chosen.has(fn));
}

/** Whether a qualified name looks like a mistyped `wanted`: one contains the other, or a few edits apart. */
function isNear(qualname: string, wanted: string): boolean {
  const a = qualname.toLowerCase();
  const b = (wanted.split('::').at(-1) ?? wanted).toLowerCase();
  if (a.includes(b) || b.includes(a)) return true;
  return editDistance(a, b) <= Math.max(2, Math.floor(b.length / 4));
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Each function with its mutation, from the checkout's files (read once each). */
export function mutationTargets(functions: readonly CatalogFunction[], checkoutPath: string): MutationTarget[] {
  const texts = new Map<string, string>();
  return functions.map((fn) => {
    let text = texts.get(fn.file);
    if (text === undefined) {
      text = readFileSync(join(checkoutPath, fn.file), 'utf8');
      texts.set(fn.file, text);
    }
    return mutationTarget({ ...fn, id: fn.functionId }, text);
  });
}
