import type { MiningPhase } from '@repocod/mining';
import type { MineStepEvent } from '../../steps/mine.js';
import type { StageProgress } from '../stage-contract.js';

/**
 * Mining's events as a stage's progress: job-level progress in every phase (its jobs are what the pool works through).
 */
export function mineProgress(progress: StageProgress): (event: MineStepEvent) => void {
  return (event) => {
    if (event.kind === 'phase-start') progress.step(0, event.jobs, miningPhaseItem(event));
    if (event.kind === 'job-done') progress.step(event.done, event.total, '');
    if (event.kind === 'shard-incomplete') {
      progress.problem(
        `a baseline shard (${event.shard}) ended with ${event.status} (limit ${event.limitSeconds} s): ` +
          `its ${event.reported} reported test(s) count, the others are left out of the baseline`,
      );
    }
    if (event.kind === 'function-done' && event.result.status === 'error')
      progress.problem(`${event.result.qualname}: ${event.result.reason ?? 'mining failed'}`);
  };
}

/** What a mining phase's jobs are, for progress lines: `baseline: pytest jobs (whole-suite shards) …`. */
export function miningPhaseItem(event: {
  readonly phase: MiningPhase;
  readonly jobs: number;
  readonly resumed: number;
  readonly functions: number;
}): string {
  const what = {
    baseline: 'whole-suite shards',
    mutation: 'mutation runs',
    fallback: 'one process per mutation',
    confirm: 'confirmation runs',
    reruns: 'reruns of the FAIL_TO_PASS tests',
  }[event.phase];
  const resumed = event.resumed > 0 ? `, ${event.resumed} done by an earlier run` : '';
  const functions = event.functions > 0 ? ` for ${event.functions} function(s)` : '';
  return `${event.phase}: pytest jobs (${what}${functions}${resumed})`;
}
