import { prepareStage } from '../../steps/prepare.js';
import type { RepositoryStage } from '../stage-contract.js';

/** The checkout at its base commit, its environment and worktrees: made once, kept for every later stage. */
export const PREPARE: RepositoryStage = {
  stage: 'prepare',
  scope: 'repository',
  async run({ common, settings }, repository, progress) {
    const prepared = await prepareStage({
      ...common,
      repository,
      workers: settings.workers,
      onLog: (line) => progress.step(0, 1, line),
    });
    common.prepared.set(repository, prepared);
    const env = prepared.environment;
    return (
      `${prepared.checkout.baseCommit.slice(0, 12)}, python ${env.pythonVersion} (${env.installer}), ` +
      `${prepared.worktrees.length} worktree(s)`
    );
  },
};
