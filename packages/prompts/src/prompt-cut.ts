import { splitLinesKeepingEnds } from '@repocod/core';

/** How prompt text is measured and cut: a tokenizer's count, and the end of a text within a number of tokens. */
export interface PromptTokenizer {
  readonly name: string;
  count(text: string): number;
  lastTokens(text: string, maxTokens: number): string;
}

/** The parts of a prompt that can be cut: the functions given, and the file's context before and after the target. */
export interface CuttableParts<F> {
  readonly functions: readonly F[];
  readonly before: string;
  readonly after: string;
}

/**
 * The parts cut until the input they make (`inputTokens`) is within `modelContext`, from the input's beginning, as
 * REPOCOD truncates:
 * 1. whole functions, from the first given;
 * 2. then tokens from the beginning of the context before;
 * 3. then whole lines from the end of the context after.
 * Each step runs again while the input is over: tokens do not add up across the seams of the template, so one cut of
 * the exact excess can leave a token over. When nothing is left to cut (the target alone is over), the parts come
 * back empty and the input stays over the context: the caller sees it in its count.
 */
export function cutToContext<F>(
  parts: CuttableParts<F>,
  inputTokens: (parts: CuttableParts<F>) => number,
  tokenizer: PromptTokenizer,
  modelContext: number,
): CuttableParts<F> {
  let { functions, before, after } = parts;
  const over = (): number => inputTokens({ functions, before, after }) - modelContext;
  while (functions.length > 0 && over() > 0) functions = functions.slice(1);
  for (let excess = over(); excess > 0 && before.length > 0; excess = over())
    before = tokenizer.lastTokens(before, Math.max(0, tokenizer.count(before) - excess));
  for (let excess = over(); excess > 0 && after.length > 0; excess = over())
    after = firstLines(after, Math.max(0, tokenizer.count(after) - excess), tokenizer);
  return { functions, before, after };
}

/**
 * The beginning of `text` within `maxTokens`: the most whole lines that fit, so that the context after the target
 * ends on a line of its own. Always shorter than `text` when `maxTokens` is below its count.
 */
function firstLines(text: string, maxTokens: number, tokenizer: PromptTokenizer): string {
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
