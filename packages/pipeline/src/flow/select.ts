import { selectStage } from '../select-stage.js';
import type { CollectiveStage } from './stage-contract.js';

/** The Lite subset over every repository's tasks, stored with its spec; later stages take its id. */
export const SELECT: CollectiveStage = {
  stage: 'select',
  scope: 'all',
  async run({ catalog, settings, state }, progress) {
    const value = await selectStage(catalog, settings.spec);
    state.selectionId = value.selectionId;
    progress.step(value.picks.length, value.picks.length, value.selectionId);
    for (const short of value.short)
      progress.problem(
        `${short.level}: ${short.available} task(s), fewer than its quota of ${short.quota}; all of them taken`,
      );
    const levels = value.levels.map((level) => `${level.level} ${level.picked}`).join(', ');
    const passedOver =
      value.passedOver.length === 0 ? '' : `; ${value.passedOver.length} passed over, validation failed`;
    const mode = `levels by ${value.spec.levels}`;
    return `selection ${value.selectionId}: ${value.picks.length} tasks (${levels})${passedOver}; ${mode}`;
  },
};
