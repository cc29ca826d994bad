import { RepocodError } from '@repocod/core';
import { runExtract } from '../../steps/extract.js';
import type { RepositoryStage } from '../stage-contract.js';

/** The functions of the checkout, their metrics and which are candidates. */
export const EXTRACT: RepositoryStage = {
  stage: 'extract',
  scope: 'repository',
  async run({ catalog, common, settings, state }, repository, progress) {
    const prepared = common.prepared.get(repository);
    if (prepared === undefined)
      throw new RepocodError('usage', 'the flow runs extract, mine and tasks only with prepare');
    const value = await runExtract(catalog, {
      root: prepared.checkout.path,
      repository,
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
