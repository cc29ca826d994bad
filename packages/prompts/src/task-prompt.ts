import { splitLinesKeepingEnds } from '@repocod/core';
import type { CalleeReference } from './callee-functions.js';
import type { LeftOutFunction } from './function-corpus.js';
import type { PromptTokenizer } from './prompt-cut.js';
import { cutToContext } from './prompt-cut.js';
import { PromptInputError } from './prompt-input-error.js';
import type { PromptSetting } from './prompt-setting.js';
import { givesFunctions } from './prompt-setting.js';
import {
  baselineText,
  calleesText,
  currentFileText,
  REPOCOD_SYSTEM_PROMPT,
  retrievedText,
} from './repocod-prompt-text.js';

/**
 * Where a task's target is in its pre state (the base file with the body removed): evaluate's CompletionSite has
 * these fields.
 */
export interface PromptSite {
  readonly file: string;
  readonly qualname: string;
  /** The pre state's text of the file. */
  readonly preText: string;
  /** The first decorator's line (the `def` line when there is none), and the first line after the docstring. */
  readonly definitionStart: number;
  readonly bodyLine: number;
}

/** The Callees setting's context before the target: the file's last tokens before it (REPOCOD's paper, §3). */
export const CALLEES_CONTEXT_TOKENS = 1024;

/** A function given before the target, as a prompt records it. */
export interface GivenFunction {
  readonly file_path: string;
  readonly function_name: string;
  /** Its `def` line at the base commit. */
  readonly line: number;
  /** Its retrieval score (BM25's, or the embeddings' cosine similarity); null for a callee. */
  readonly score: number | null;
  readonly text: string;
}

/**
 * How the functions of a prompt were found, recorded with it so that a prompt file says how it was made: `corpus`
 * its size, `left_out` the functions kept out of it (function-corpus.ts) but the tests the task removes, which are
 * only counted (`tests_left_out`: the task's `pre_patches.test` names them, and there are thousands in some tasks).
 */
export type PromptRetrieval =
  | {
      readonly method: 'bm25';
      readonly library: string;
      readonly k1: number;
      readonly b: number;
      readonly top: number;
      readonly query: 'target';
      readonly corpus: number;
      readonly left_out: readonly LeftOutFunction[];
      readonly tests_left_out: number;
    }
  | {
      readonly method: 'dense';
      readonly command: string;
      readonly top: number;
      readonly query: 'target';
      readonly corpus: number;
      readonly left_out: readonly LeftOutFunction[];
      readonly tests_left_out: number;
    }
  | { readonly method: 'callees'; readonly level_mode: 'repocod-v4'; readonly not_given: readonly CalleeReference[] };

/** The functions a setting gives (bm25, dense and callees), in the order the prompt gives them, and how. */
export interface PromptFunctions {
  readonly given: readonly GivenFunction[];
  readonly retrieval: PromptRetrieval;
}

/** One task's prompt under a setting, in REPOCOD's layout: what its inference example gives a model. */
export interface TaskPrompt {
  readonly instance_id: string;
  /**
   * The repository as REPOCOD's predictions name it (the manifest's name: `seaborn`, `scikit-learn`): with
   * `function_name`, what a prediction file in REPOCOD's form is keyed by (`{repository: {id: {function_name, …}}}`).
   */
  readonly repository: string;
  readonly setting: PromptSetting;
  /** The target's file, and its name as REPOCOD's predictions give it (`function_name`: the qualified name). */
  readonly file_path: string;
  readonly function_name: string;
  readonly system_prompt: string;
  /** The target: its decorators, signature and docstring, as in the file. */
  readonly target: string;
  /**
   * The file around the target with its body removed: before it and after it (current-file), or before it alone,
   * its last 1,024 tokens (callees; `after` is empty). Null for the other settings.
   */
  readonly context: { readonly before: string; readonly after: string } | null;
  /** The functions given before the target (bm25, dense, callees), null for the other settings. */
  readonly functions: readonly GivenFunction[] | null;
  readonly retrieval: PromptRetrieval | null;
  /** The user message, and the whole input as REPOCOD's example feeds it (`{system}\n{prompt}`). */
  readonly prompt: string;
  readonly input: string;
  readonly tokens: { readonly tokenizer: string; readonly input: number; readonly model_context: number | null };
  /**
   * What was cut to fit the model's context: functions dropped from the first given, then tokens from the beginning
   * of the context before, then from the end of the context after.
   */
  readonly truncated: { readonly functions: number; readonly before: number; readonly after: number };
}

/**
 * A task's prompt from its site in the pre state (its body removed, never its solution) and, for the settings that
 * give functions, the functions (from function-corpus.ts, which never holds the solution either).
 *
 * A prompt is the functions, the context before the target, the target, and the context after it. An input over the
 * model's context is cut from its beginning (prompt-cut.ts): whole functions first, from the first given (for a
 * retrieval the least relevant, as it gives the most relevant last; for the callees the first called), then the
 * context before, then the context after from its end. The target is never cut: a target alone over the context
 * leaves the input over it.
 */
export function taskPrompt(
  task: { readonly instanceId: string; readonly repository: string },
  site: PromptSite,
  setting: PromptSetting,
  tokenizer: PromptTokenizer,
  modelContext: number | null = null,
  functions: PromptFunctions | null = null,
): TaskPrompt {
  if (givesFunctions(setting) !== (functions !== null))
    throw new PromptInputError(
      `the ${setting} setting ${functions === null ? 'needs' : 'takes no'} functions`,
      site.file,
    );
  const lines = splitLinesKeepingEnds(site.preText);
  const target = promptTarget(site);
  const fileBefore = lines.slice(0, site.definitionStart - 1).join('');
  const fullBefore =
    setting === 'current-file'
      ? fileBefore
      : setting === 'callees'
        ? tokenizer.lastTokens(fileBefore, CALLEES_CONTEXT_TOKENS)
        : '';
  const fullAfter = setting === 'current-file' ? lines.slice(site.bodyLine - 1).join('') : '';
  const allGiven = functions?.given ?? [];
  const compose = (given: readonly GivenFunction[], before: string, after: string): string => {
    switch (setting) {
      case 'baseline':
        return baselineText(site.file, target);
      case 'current-file':
        return currentFileText(site.file, before.trimEnd(), after.trim(), target);
      case 'callees':
        return calleesText(given, site.file, before.trimEnd(), target);
      default:
        return retrievedText(given, site.file, target);
    }
  };
  const inputOf = (prompt: string): string => `${REPOCOD_SYSTEM_PROMPT}\n${prompt}`;
  const whole = { functions: allGiven, before: fullBefore, after: fullAfter };
  const {
    functions: given,
    before,
    after,
  } = modelContext === null
    ? whole
    : cutToContext(
        whole,
        (parts) => tokenizer.count(inputOf(compose(parts.functions, parts.before, parts.after))),
        tokenizer,
        modelContext,
      );
  const prompt = compose(given, before, after);
  const input = inputOf(prompt);
  return {
    instance_id: task.instanceId,
    repository: task.repository,
    setting,
    file_path: site.file,
    function_name: site.qualname,
    system_prompt: REPOCOD_SYSTEM_PROMPT,
    target,
    context:
      setting === 'current-file' || setting === 'callees' ? { before: before.trimEnd(), after: after.trim() } : null,
    functions: functions === null ? null : given,
    retrieval: functions?.retrieval ?? null,
    prompt,
    input,
    tokens: { tokenizer: tokenizer.name, input: tokenizer.count(input), model_context: modelContext },
    truncated: {
      functions: allGiven.length - given.length,
      before: tokenizer.count(fullBefore) - tokenizer.count(before),
      after: tokenizer.count(fullAfter) - tokenizer.count(after),
    },
  };
}

/** The target as a prompt gives it, and retrieval's query: its decorators, signature and docstring, as in the file. */
export function promptTarget(site: PromptSite): string {
  return splitLinesKeepingEnds(site.preText)
    .slice(site.definitionStart - 1, site.bodyLine - 1)
    .join('')
    .trimEnd();
}
