import type { RepositoryStage, StageDefinition } from '../stage-contract.js';

/** The checkout at its base commit, its environment and worktrees: made once, kept for every later stage. */
const PREPARE_RUN: RepositoryStage = {
  stage: 'prepare',
  scope: 'repository',
  async run({ repositories }, repository, progress) {
    const prepared = await repositories.get(repository, (line) => progress.step(0, 1, line));
    const env = prepared.environment;
    return (
      `${prepared.checkout.baseCommit.slice(0, 12)}, python ${env.pythonVersion} (${env.installer}), ` +
      `${prepared.worktrees.length} worktree(s)`
    );
  },
};

export const PREPARE: StageDefinition = {
  stage: 'prepare',
  title: 'checkout and environment',
  rows: 'per-repository',
  runner: () => PREPARE_RUN,
  stored: (_status, repository) =>
    repository?.checkedOut === true && repository.environment ? 'checked out, environment built' : null,
};
