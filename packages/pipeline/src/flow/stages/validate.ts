import { RepositoryLaps } from '../repository-laps.js';
import { selectStep } from '../../steps/select.js';
import { flowSelectionSpec } from '../flow-selection-spec.js';
import { validateStep } from '../../steps/validate.js';
import { countValidations } from '@repocod/validate';
import type { CollectiveStage, StageDefinition } from '../stage-contract.js';
import { FlowStageError } from '../stage-contract.js';
import { recordStageTime } from '../stage-rows.js';

/**
 * Every selected task checked with the shared runner, failed ones replaced by the next of their level;
 * tasks that could not be judged stop the flow.
 */
const VALIDATE_RUN: CollectiveStage = {
  stage: 'validate',
  scope: 'all',
  async run(context, progress) {
    const { catalog, repositories, settings, state, rows } = context;
    const laps = new RepositoryLaps(performance.now());
    const validate = (selectionId: string | undefined) =>
      validateStep(catalog, repositories, {
        projectRoot: settings.projectRoot,
        executor: settings.executor,
        selectionId,
        repeat: settings.validateRepeat,
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
    // A task that fails validation leaves the selection and the next of its level takes its place, which is
    // validated in turn (the others' verdicts come from the catalog). Each round leaves out more failed
    // tasks, so the rounds end: when none of the picks failed, or when a level has no task left to give.
    let value = await validate(state.selectionId);
    let replaced = 0;
    while (!rows.aborted()) {
      const failed = value.validations.filter((validation) => validation.status === 'failed').length;
      if (failed === 0 || countValidations(value.validations).byStatus['infra-error'] > 0) break;
      const reselected = await selectStep(catalog, await flowSelectionSpec(context));
      if (reselected.selectionId === value.selectionId) break;
      replaced += failed;
      progress.problem(
        `${failed} selected task(s) failed validation: selection ${reselected.selectionId} takes the next of ` +
          `their levels (${reselected.picks.length} tasks)`,
      );
      state.selectionId = reselected.selectionId;
      value = await validate(reselected.selectionId);
    }
    // The stage spans repositories: each one's time is its lap, for the records.
    for (const [repository, seconds] of laps.laps()) await recordStageTime(catalog, repository, 'validate', seconds);
    const counts = countValidations(value.validations);
    const summary =
      `${counts.tasks} task(s): ${counts.byStatus.passed} passed, ${counts.byStatus.failed} failed, ` +
      `${counts.byStatus['infra-error']} not judged; ${counts.flakyTests} flaky test(s) removed` +
      (replaced > 0 ? `; ${replaced} failed task(s) replaced, selection ${value.selectionId}` : '');
    if (counts.byStatus['infra-error'] > 0) {
      throw new FlowStageError(
        `${summary}. The infrastructure errors are retried by running the flow again (or repocod validate); ` +
          "repocod show ID gives each one's log",
      );
    }
    return summary;
  },
};

export const VALIDATE: StageDefinition = {
  stage: 'validate',
  title: 'validation with the shared runner',
  rows: 'one',
  runner: () => VALIDATE_RUN,
  stored: (status) => {
    const { passed, failed, infraError, notValidated } = status.validation;
    const complete = status.selection !== null && notValidated === 0 && infraError === 0;
    return complete ? `${passed} passed, ${failed} failed` : null;
  },
};
