import type { StoredTask } from '@repocod/catalog';
import type { ContextLevel, LevelMode } from '@repocod/core';
import { LEVEL_MODES } from '@repocod/core';
import { repocodFunctionNames } from '@repocod/tasks';

/**
 * What a task is, in the names a committed record and a release's tasks.jsonl both use: where its
 * function is (and REPOCOD's name for it), its context level, its prompt and solution lengths and its
 * complexity (`cc`).
 */
export interface TaskFacts {
  readonly instance_id: string;
  readonly repository: string;
  readonly file: string;
  readonly qualname: string;
  /** REPOCOD's `function_name` form, unique among the repository's tasks of the set (repocod-function-name.ts). */
  readonly function_name: string;
  /** The level under `level_mode`. */
  readonly level: StoredTask['level'];
  /** The context-level mode of `level` (a selection's, for a release or a record of a selection). */
  readonly level_mode: LevelMode;
  /** The level under every mode; null for a mode the task was not labelled under (built before the modes). */
  readonly levels: Readonly<Record<LevelMode, ContextLevel | null>>;
  readonly prompt_lines: number;
  readonly solution_lines: number;
  readonly prompt_tokens: number;
  readonly solution_tokens: number;
  readonly cc: number;
}

/** Each task with its facts, in order, REPOCOD's names made unique among the repository's tasks in `tasks`. */
export function taskFactsOf(tasks: readonly StoredTask[]): { readonly task: StoredTask; readonly facts: TaskFacts }[] {
  const names = new Map<string, string>();
  for (const repository of new Set(tasks.map((task) => task.repository))) {
    const named = repocodFunctionNames(tasks.filter((task) => task.repository === repository));
    for (const [instanceId, name] of named) names.set(instanceId, name);
  }
  return tasks.map((task) => ({ task, facts: taskFacts(task, names.get(task.instanceId) ?? task.qualname) }));
}

function taskFacts(task: StoredTask, functionName: string): TaskFacts {
  return {
    instance_id: task.instanceId,
    repository: task.repository,
    file: task.file,
    qualname: task.qualname,
    function_name: functionName,
    level: task.level,
    level_mode: task.levelMode,
    levels: Object.fromEntries(LEVEL_MODES.map((mode) => [mode, task.levels[mode]?.level ?? null])) as Record<
      LevelMode,
      ContextLevel | null
    >,
    prompt_lines: task.promptLines,
    solution_lines: task.solutionLines,
    prompt_tokens: task.promptTokens,
    solution_tokens: task.solutionTokens,
    cc: task.complexity,
  };
}
