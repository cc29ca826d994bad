import type { BaselineReruns } from '@repocod/core';
import type { MiningEvent } from './mining-events.js';
import type { MiningMode, MiningStore } from './mining-store.js';
import type { MutationTarget } from './mutation-target.js';

export interface MineOptions {
  readonly mode: MiningMode;
  /** Runs at the base commit that tell flaky tests (default 3): the first of the whole suite, traced. */
  readonly repeat?: number;
  /** What the k - 1 runs after the first run (BASELINE_RERUNS; default `suite`): see relevant-reruns.ts. */
  readonly reruns?: BaselineReruns;
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
