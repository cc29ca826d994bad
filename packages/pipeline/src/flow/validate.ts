import { RepositoryLaps } from '../repository-laps.js';
import { validateStage } from '../validate-stage.js';
import { countValidations } from '@repocod/validate';
import type { CollectiveStage } from './stage-contract.js';
import { FlowStageError } from './stage-contract.js';
import { recordStageTime } from './stage-rows.js';

/** Every selected task checked with the shared runner; tasks that could not be judged stop the flow. */
export const VALIDATE: CollectiveStage = {
  stage: 'validate',
  scope: 'all',
  async run({ catalog, common, settings, state }, progress) {
    const laps = new RepositoryLaps(performance.now());
    const value = await validateStage(catalog, {
      ...common,
      selectionId: state.selectionId,
      workers: settings.workers,
      repeat: settings.repeat,
      narrow: settings.narrow,
      onEvent: (event) => {
        laps.heard(event.repository, performance.now());
        if (event.kind === 'validate-repository')
          progress.step(
            0,
            event.toValidate,
            `${event.repository}: ${event.toValidate} of ${event.tasks} task(s) to validate`,
          );
        if (event.kind === 'validate-task') {
          progress.step(event.done, event.total, `${event.instanceId} ${event.status}`);
          if (event.status !== 'passed') {
            const verdict = event.status === 'failed' ? 'failed' : 'could not be judged';
            progress.problem(`${event.instanceId} ${verdict}: ${event.problem ?? 'no check named'}`);
          }
        }
      },
    });
    // The stage spans repositories: each one's time is its lap, for the records.
    for (const [repository, seconds] of laps.laps()) await recordStageTime(catalog, repository, 'validate', seconds);
    const counts = countValidations(value.validations);
    const summary =
      `${counts.tasks} task(s): ${counts.byStatus.passed} passed, ${counts.byStatus.failed} failed, ` +
      `${counts.byStatus['infra-error']} not judged; ${counts.flakyTests} flaky test(s) removed`;
    if (counts.byStatus['infra-error'] > 0) {
      throw new FlowStageError(
        `${summary}. The infrastructure errors are retried by running the flow again (or repocod validate); ` +
          "repocod show ID gives each one's log",
      );
    }
    return summary;
  },
};
