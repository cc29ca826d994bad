import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { RepocodError } from '@repocod/core';

/** The tokenizers a prompt can be measured and cut with: OpenAI's encodings, as `--tokenizer` names them. */
export const PROMPT_TOKENIZER_NAMES = ['cl100k', 'o200k'] as const;
export type PromptTokenizerName = (typeof PROMPT_TOKENIZER_NAMES)[number];

/**
 * A tokenizer's count of a text, and the end of a text within a number of tokens: whole tokens dropped from its
 * beginning, as a prompt is cut to a model's context (REPOCOD truncates from the beginning), always a suffix of the
 * text. The text itself when it fits.
 */
export interface NamedTokenizer {
  readonly name: PromptTokenizerName;
  count(text: string): number;
  lastTokens(text: string, maxTokens: number): string;
}

const noSpecialTokens = { disallowedSpecial: new Set<string>() };
const ENCODINGS = { cl100k, o200k } as const;

/** `--tokenizer NAME` read, or a usage error naming the tokenizers. Special-token text counts as plain text. */
export function promptTokenizer(name: string): NamedTokenizer {
  const known = PROMPT_TOKENIZER_NAMES.find((candidate) => candidate === name);
  if (known === undefined)
    throw new RepocodError(
      'usage',
      `--tokenizer ${name}: not a tokenizer (known: ${PROMPT_TOKENIZER_NAMES.join(', ')}: OpenAI's cl100k_base and ` +
        `o200k_base)`,
    );
  const { encode, decode } = ENCODINGS[known];
  return {
    name: known,
    count: (text) => (text.length === 0 ? 0 : encode(text, noSpecialTokens).length),
    lastTokens: (text, maxTokens) => {
      const tokens = encode(text, noSpecialTokens);
      if (tokens.length <= maxTokens) return text;
      // A token can start inside a character (one byte of a multi-byte UTF-8 sequence), whose decoding would begin
      // with U+FFFD: more tokens are dropped until the end decoded is the text's own.
      for (let drop = tokens.length - Math.max(0, maxTokens); drop < tokens.length; drop++) {
        const end = decode(tokens.slice(drop));
        if (text.endsWith(end)) return end;
      }
      return '';
    },
  };
}
