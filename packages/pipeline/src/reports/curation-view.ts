import type { Catalog, StoredTask, StoredValidation } from '@repocod/catalog';
import type { ContextLevel, Dependency } from '@repocod/core';
import { readCurrentValidations, readCurrentVerdicts, taskHash, taskHashOf } from '@repocod/validate';
import type { CheckResult } from '@repocod/validate';
import { checksOf } from '@repocod/validate';

/**
 * What the curator's screens show of the catalog, read in one place so that the TUI (and anything
 * else that browses the catalog) never reads tables itself: the tasks as rows, one task whole, and the
 * validation of a selection.
 */

/** A task's current verdict: the newest validation of its present content, or none yet. */
export type TaskValidationStatus = StoredValidation['status'] | 'not-validated';

/** One row of the tasks table. */
export interface TaskOverview {
  readonly instanceId: string;
  readonly repository: string;
  readonly file: string;
  readonly qualname: string;
  readonly level: ContextLevel;
  readonly complexity: number;
  readonly promptLines: number;
  readonly solutionLines: number;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  /** FAIL_TO_PASS as mined. */
  readonly tests: number;
  /** The tasks stage's patch checks (round trip, git apply, the pre state collects). */
  readonly checksPassed: boolean;
  /** In the latest selection. */
  readonly selected: boolean;
  readonly validation: TaskValidationStatus;
}

/** A dependency that gave a task its level (as the tasks stage stored it): core's Dependency. */
export type TaskDependency = Dependency;

export interface TaskDetail {
  readonly task: StoredTask;
  readonly dependencies: readonly TaskDependency[];
  /** Messages of the tasks stage's patch checks that failed. */
  readonly checkMessages: readonly string[];
  readonly validation: StoredValidation | null;
  /** The validation's checks (empty when not validated). */
  readonly checks: readonly CheckResult[];
}

export interface ValidationEntry {
  readonly instanceId: string;
  readonly repository: string;
  readonly status: TaskValidationStatus;
  readonly checks: readonly CheckResult[];
  readonly flakyTests: readonly string[];
  readonly droppedTests: readonly string[];
  readonly validation: StoredValidation | null;
}

export interface ValidationOverview {
  /** The latest selection, or null when nothing was selected yet. */
  readonly selectionId: string | null;
  readonly entries: readonly ValidationEntry[];
}

/** Every task of the catalog with what the tasks table shows, by instance id. */
export async function taskOverviews(catalog: Catalog): Promise<TaskOverview[]> {
  // Summaries, not whole tasks: the patches of tasks with thousands of tests run to megabytes each.
  const tasks = await catalog.taskSummaries();
  const selection = await catalog.selection();
  const selected = new Set(selection?.picks.map((pick) => pick.instanceId) ?? []);
  // The verdicts alone: the evidence (checks, logs, test lists) is for one task's screen.
  const current = await readCurrentVerdicts(catalog, tasks);
  return tasks.map((task) => ({
    instanceId: task.instanceId,
    repository: task.repository,
    file: task.file,
    qualname: task.qualname,
    level: task.level,
    complexity: task.complexity,
    promptLines: task.promptLines,
    solutionLines: task.solutionLines,
    promptTokens: task.promptTokens,
    solutionTokens: task.solutionTokens,
    tests: task.failToPass.length,
    checksPassed: task.checksPassed,
    selected: selected.has(task.instanceId),
    validation: current.get(task.instanceId) ?? 'not-validated',
  }));
}

/** One task whole: its row, the dependencies behind its level, its patch checks and its validation. */
export async function taskDetail(catalog: Catalog, instanceId: string): Promise<TaskDetail | null> {
  const task = await catalog.task(instanceId);
  if (task === null) return null;
  const validation =
    (await readCurrentValidations(catalog, [{ instanceId: task.instanceId, hash: taskHash(task) }])).get(
      task.instanceId,
    ) ?? null;
  return {
    task,
    dependencies: task.dependencies,
    checkMessages: task.checksPassed ? [] : task.checks.messages,
    validation,
    checks: validation === null ? [] : checksOf(validation),
  };
}

/** Every task of the latest selection with its current validation (failures first, then by id). */
export async function validationOverview(catalog: Catalog): Promise<ValidationOverview> {
  const selection = await catalog.selection();
  if (selection === null) return { selectionId: null, entries: [] };
  const picked = new Set(selection.picks.map((pick) => pick.instanceId));
  const tasks = (await catalog.taskSummaries()).filter((task) => picked.has(task.instanceId));
  const current = await readCurrentValidations(
    catalog,
    tasks.map((task) => ({ instanceId: task.instanceId, hash: taskHashOf(task) })),
  );
  const order: Record<TaskValidationStatus, number> = { 'infra-error': 0, failed: 1, 'not-validated': 2, passed: 3 };
  const entries = tasks.map((task): ValidationEntry => {
    const validation = current.get(task.instanceId) ?? null;
    return {
      instanceId: task.instanceId,
      repository: task.repository,
      status: validation?.status ?? 'not-validated',
      checks: validation === null ? [] : checksOf(validation),
      flakyTests: validation?.flakyTests ?? [],
      droppedTests: validation?.droppedTests ?? [],
      validation,
    };
  });
  entries.sort(
    (a, b) =>
      order[a.status] - order[b.status] || (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0),
  );
  return { selectionId: selection.selectionId, entries };
}

/** The whole output of a run (a row of `runs`), or null when the catalog has no such run. */
export function runLog(catalog: Pick<Catalog, 'runLog'>, runId: string): Promise<string | null> {
  return catalog.runLog(runId);
}
