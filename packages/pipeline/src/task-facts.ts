import type { StoredTask } from '@repocod/catalog';

/**
 * What a task is, in the names a committed record and a release's tasks.jsonl both use: where its
 * function is, its context level, its prompt and solution lengths and its complexity (`cc`).
 */
export interface TaskFacts {
  readonly instance_id: string;
  readonly repository: string;
  readonly file: string;
  readonly qualname: string;
  readonly level: StoredTask['level'];
  readonly prompt_lines: number;
  readonly solution_lines: number;
  readonly prompt_tokens: number;
  readonly solution_tokens: number;
  readonly cc: number;
}

export function taskFacts(task: StoredTask): TaskFacts {
  return {
    instance_id: task.instanceId,
    repository: task.repository,
    file: task.file,
    qualname: task.qualname,
    level: task.level,
    prompt_lines: task.promptLines,
    solution_lines: task.solutionLines,
    prompt_tokens: task.promptTokens,
    solution_tokens: task.solutionTokens,
    cc: task.complexity,
  };
}
