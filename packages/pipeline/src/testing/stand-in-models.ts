import type { TaskPrompt } from '@repocod/prompts';

/**
 * Test support: models of ours that answer a prompt without thinking, to close the loop prompts → outputs →
 * evaluate on the demo. Each is given the task's gold code patch (pre → gold), whose added lines are the body.
 */
export type StandInModel = (prompt: TaskPrompt, goldCode: string) => string;

/** The body lines the gold code patch adds, as they stand in the file (a body continuation). */
export function goldBody(goldCode: string): string {
  return goldCode
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .map((line) => `${line.slice(1)}\n`)
    .join('');
}

export const STAND_IN_MODELS: Readonly<Record<string, StandInModel>> = {
  /** The solution, continuing the prompt. */
  gold: (_prompt, goldCode) => goldBody(goldCode),
  /** What REPOCOD's system prompt forbids: a body that does nothing. */
  pass: (prompt) => `${/^[ \t]*/.exec(prompt.target.split('\n').at(-1) ?? '')?.[0] ?? '    '}pass\n`,
  /** The solution as REPOCOD's inference example leaves it: generation stops at the fence token, kept. */
  'fence-wrapped': (_prompt, goldCode) => `${goldBody(goldCode)}\`\`\``,
};
