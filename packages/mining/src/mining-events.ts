import type { FunctionMining } from './mining-store.js';

/**
 * baseline: the k reference runs, the first one traced for the coverage map; reruns: with `relevant` reruns, the
 * k - 1 runs of the tests that ended in a FAIL_TO_PASS, after the mutations.
 */
export type MiningPhase = 'baseline' | 'mutation' | 'fallback' | 'confirm' | 'reruns';

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
