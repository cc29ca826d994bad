import type { MiningTracebacks } from '@repocod/mining';
import type { PreparedRepository } from '@repocod/runner';
import { baselineRerunsOf, baselineRunsOf } from '@repocod/runner';
import { contentHash, DEFAULT_REPEAT } from '@repocod/core';

/**
 * Bumped when the mining harness changes what it finds (plugins, mutation text, pytest arguments):
 * results stored under an older version are then not reused.
 */
export const MINING_VERSION = 1;

/**
 * What mining results depend on besides the functions: a new key starts afresh, the same key resumes. Mining
 * stores its results under it; the tasks stage and validation read them back under it (mining's baseline as the gold
 * evidence). `repeat` is the command's; the manifest's baseline_runs takes its place (see baselineRunsOf), and
 * its baseline_reruns says what the runs after the first run (relevant-reruns.ts in @repocod/mining).
 */
export function miningKeyOf(
  prepared: PreparedRepository,
  repeat = DEFAULT_REPEAT,
  tracebacks: MiningTracebacks = 'native',
): string {
  return contentHash(
    JSON.stringify({
      version: MINING_VERSION,
      baseCommit: prepared.checkout.baseCommit,
      environment: prepared.environment.key,
      repeat: baselineRunsOf(prepared.entry, repeat),
      timeout: prepared.entry.timeoutSeconds,
      tracebacks,
      // Only when not the whole suite, so that every key made before reruns could be chosen stays as it was.
      ...(baselineRerunsOf(prepared.entry) === 'relevant' ? { reruns: 'relevant' } : {}),
    }),
  );
}
