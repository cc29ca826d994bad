import type { MineOptions } from './mine-options.js';
import type { MiningJobs } from './mining-jobs.js';
import type { MiningPhases } from './mining-phases.js';
import type { MiningProgress } from './mining-progress.js';

/** What the phases of one mining run share: its options, the jobs it builds, its phases' figures and its results. */
export interface MiningRun {
  readonly options: MineOptions;
  readonly jobs: MiningJobs;
  readonly phases: MiningPhases;
  readonly progress: MiningProgress;
}
