import { catalogName } from '@repocod/runner';
import { extractStep } from '../../steps/extract.js';
import type { RepositoryStage, StageDefinition } from '../stage-contract.js';

/** The functions of the checkout, their metrics and which are candidates. */
const EXTRACT_RUN: RepositoryStage = {
  stage: 'extract',
  scope: 'repository',
  async run({ catalog, repositories, settings, state }, repository, progress) {
    // runFlow runs extract only after prepare: the repository is the one the prepare stage made.
    const prepared = await repositories.get(repository);
    const value = await extractStep(catalog, {
      root: prepared.checkout.path,
      repository: catalogName(prepared.entry),
      baseCommit: prepared.checkout.baseCommit,
      onProgress: (event) => {
        if (event.kind === 'extract-file') progress.step(event.done, event.total, event.file);
        if (event.kind === 'extract-issue') progress.problem(`${event.issue.file}: ${event.issue.message}`);
      },
    });
    // Lite-first mining waits for every repository's candidates: it ranks them all together.
    if (!settings.mineAll) state.extracted.add(repository);
    return (
      `${value.files} files (${value.extractedFiles} parsed, ${value.unchangedFiles} unchanged), ` +
      `${value.functions} functions, ${value.candidates} candidates`
    );
  },
};

export const EXTRACT: StageDefinition = {
  stage: 'extract',
  title: 'functions and metrics',
  rows: 'per-repository',
  needs: ['prepare'],
  runner: () => EXTRACT_RUN,
  stored: (_status, repository) =>
    repository !== undefined && repository.functions > 0
      ? `${repository.functions} functions, ${repository.candidates} candidates`
      : null,
};
