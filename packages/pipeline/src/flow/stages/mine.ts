import type { StageDefinition } from '../stage-contract.js';
import { LITE_FIRST } from './lite-first.js';
import { MINE_ALL } from './mine-all.js';

/**
 * Each repository's relevant tests: every candidate's (`--all`, or a reference's functions), or Lite-first, only
 * those the selection can pick (the tasks of every repository built along, see lite-first.ts).
 */
export const MINE: StageDefinition = {
  stage: 'mine',
  title: 'relevant tests (FAIL_TO_PASS)',
  rows: 'per-repository',
  needs: ['prepare'],
  runner: (settings) => (settings.mineAll ? MINE_ALL : LITE_FIRST),
  stored: (_status, repository) =>
    repository !== undefined && repository.mined > 0
      ? `${repository.mined} functions mined, ${repository.withTests} with relevant tests`
      : null,
};
