import { mineStep } from '../../steps/mine.js';
import { mineProgress } from './mine-progress.js';
import type { RepositoryStage } from '../stage-contract.js';

/** Every candidate's relevant tests (`--all`), or every function of a reference's, one repository at a time. */
export const MINE_ALL: RepositoryStage = {
  stage: 'mine',
  scope: 'repository',
  async run({ catalog, repositories, settings, state }, repository, progress) {
    const value = await mineStep(catalog, await repositories.get(repository), {
      projectRoot: settings.projectRoot,
      executor: settings.executor,
      candidates: settings.candidates,
      changedSince: settings.changedSince,
      datedAgainst: settings.datedAgainst,
      repeat: settings.repeat,
      mode: 'fast',
      reference: settings.spec.reference,
      onEvent: mineProgress(progress),
    });
    state.miningKeys.set(repository, value.miningKey);
    const withTests = value.functions.filter((fn) => fn.status === 'tests').length;
    const minedNow = value.functions.length - value.resumed;
    const what =
      settings.spec.reference === undefined ? 'candidates' : `function(s) of reference ${settings.spec.reference}`;
    return (
      `${value.targets} ${what}: ${withTests} with relevant tests ` +
      `(${minedNow} mined now, ${value.resumed} from the catalog)`
    );
  },
};
