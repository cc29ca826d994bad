import { splitLinesKeepingEnds } from '@repocod/core';
import type { CompletionSite } from './completion-patch.js';
import type { PromptSetting } from './prompt-setting.js';
import { baselineText, currentFileText, REPOCOD_SYSTEM_PROMPT } from './repocod-prompt-text.js';

/** How prompt text is measured and cut: a tokenizer's count, and the end of a text within a number of tokens. */
export interface PromptTokenizer {
  readonly name: string;
  count(text: string): number;
  lastTokens(text: string, maxTokens: number): string;
}

/** One task's prompt under a setting, in REPOCOD's layout: what its inference example gives a model. */
export interface TaskPrompt {
  readonly instance_id: string;
  readonly setting: PromptSetting;
  /** The target's file, and its name as REPOCOD's predictions give it (`function_name`: the qualified name). */
  readonly file_path: string;
  readonly function_name: string;
  readonly system_prompt: string;
  /** The target: its decorators, signature and docstring, as in the file. */
  readonly target: string;
  /** The file around the target with its body removed (current-file): what came before it and after it. */
  readonly context: { readonly before: string; readonly after: string } | null;
  /** The user message, and the whole input as REPOCOD's example feeds it (`{system}\n{prompt}`). */
  readonly prompt: string;
  readonly input: string;
  readonly tokens: { readonly tokenizer: string; readonly input: number; readonly model_context: number | null };
  /** Tokens cut from the beginning of the context before, and the end of the context after, to fit the context. */
  readonly truncated: { readonly before: number; readonly after: number };
}

/**
 * A task's prompt from its completion site (the file of the pre state: its body removed, never its solution). The
 * context before the target keeps its end and the context after its beginning: when the input is over the model's
 * context, the context before is cut from its beginning first (REPOCOD truncates from the beginning), then the
 * context after from its end.
 */
export function taskPrompt(
  task: { readonly instanceId: string },
  site: CompletionSite,
  setting: PromptSetting,
  tokenizer: PromptTokenizer,
  modelContext: number | null = null,
): TaskPrompt {
  const lines = splitLinesKeepingEnds(site.preText);
  const target = lines
    .slice(site.definitionStart - 1, site.bodyLine - 1)
    .join('')
    .trimEnd();
  // The baseline has no context: nothing of the file around the target is given, so nothing is cut from it.
  const fullBefore = setting === 'baseline' ? '' : lines.slice(0, site.definitionStart - 1).join('');
  const fullAfter = setting === 'baseline' ? '' : lines.slice(site.bodyLine - 1).join('');
  const compose = (before: string, after: string): string =>
    setting === 'baseline'
      ? baselineText(site.file, target)
      : currentFileText(site.file, before.trimEnd(), after.trim(), target);
  const inputOf = (prompt: string): string => `${REPOCOD_SYSTEM_PROMPT}\n${prompt}`;
  let before = fullBefore;
  let after = fullAfter;
  if (modelContext !== null && setting === 'current-file') {
    const over = (): number => tokenizer.count(inputOf(compose(before, after))) - modelContext;
    const first = over();
    if (first > 0) before = tokenizer.lastTokens(before, Math.max(0, tokenizer.count(before) - first));
    const second = over();
    if (second > 0) after = firstTokens(after, Math.max(0, tokenizer.count(after) - second), tokenizer);
  }
  const prompt = compose(before, after);
  const input = inputOf(prompt);
  return {
    instance_id: task.instanceId,
    setting,
    file_path: site.file,
    function_name: site.qualname,
    system_prompt: REPOCOD_SYSTEM_PROMPT,
    target,
    context: setting === 'baseline' ? null : { before: before.trimEnd(), after: after.trim() },
    prompt,
    input,
    tokens: { tokenizer: tokenizer.name, input: tokenizer.count(input), model_context: modelContext },
    truncated: {
      before: tokenizer.count(fullBefore) - tokenizer.count(before),
      after: tokenizer.count(fullAfter) - tokenizer.count(after),
    },
  };
}

/** The beginning of `text` within `maxTokens`, cut at a line boundary from its end (the most whole lines that fit). */
function firstTokens(text: string, maxTokens: number, tokenizer: PromptTokenizer): string {
  const lines = splitLinesKeepingEnds(text);
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tokenizer.count(lines.slice(0, middle).join('')) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return lines.slice(0, low).join('');
}
