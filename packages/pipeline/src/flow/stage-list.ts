import { EXTRACT } from './stages/extract.js';
import { MINE } from './stages/mine.js';
import { PREPARE } from './stages/prepare.js';
import { PUBLISH } from './stages/publish.js';
import { SELECT } from './stages/select.js';
import { TASKS } from './stages/tasks.js';
import { VALIDATE } from './stages/validate.js';
import type { FlowStage } from './flow-events.js';
import type { FlowSettings, Stage, StageDefinition } from './stage-contract.js';

/**
 * The flow's stages, in order: the one list their names, titles, rows and runners are read from (the TUI's
 * stages screen, the headless lines, `--status` and runFlow alike). A new stage is one file under stages/ and one
 * entry here.
 */
export const FLOW_STAGE_LIST: readonly StageDefinition[] = [PREPARE, EXTRACT, MINE, TASKS, SELECT, VALIDATE, PUBLISH];

/** The stages' names, in order. */
export function stageNames(list: readonly StageDefinition[]): FlowStage[] {
  return list.map((definition) => definition.stage);
}

/** The stages of the whole flow, in order: the TUI's stages screen and the headless lines follow them. */
export const FLOW_STAGES: readonly FlowStage[] = stageNames(FLOW_STAGE_LIST);

/** For people: what a stage does, in a few words (its name when the list has no such stage). */
export function stageTitle(stage: FlowStage, list: readonly StageDefinition[] = FLOW_STAGE_LIST): string {
  return list.find((definition) => definition.stage === stage)?.title ?? stage;
}

/** The stages with a row per repository; the others have one row over all of them. */
export const PER_REPOSITORY_STAGES: ReadonlySet<FlowStage> = new Set(
  FLOW_STAGE_LIST.filter((definition) => definition.rows === 'per-repository').map((definition) => definition.stage),
);

/**
 * What runs under these settings, in order: each stage's runner (Lite-first mining is one runner that spans the
 * repositories and builds their tasks too, so the tasks stage has none of its own then).
 */
export function flowStages(settings: FlowSettings, list: readonly StageDefinition[] = FLOW_STAGE_LIST): Stage[] {
  return list.flatMap((definition) => {
    const runner = definition.runner(settings);
    return runner === null ? [] : [runner];
  });
}
