import { encode } from 'gpt-tokenizer/encoding/cl100k_base';

const noSpecialTokens = { disallowedSpecial: new Set<string>() };

/**
 * OpenAI cl100k_base token count of an exact slice, as REPOCOD measured its prompt and solution
 * lengths. Text that looks like a special token (`<|endoftext|>` in a docstring) is counted as the
 * plain text it is, never as a control token and never as an error.
 */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : encode(text, noSpecialTokens).length;
}

/** Lines of a slice: a final line without a line break still counts. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}
