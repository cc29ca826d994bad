import { promptTokenizer } from '@repocod/metrics';
import { taskPrompt } from '@repocod/prompts';
import { describe, expect, it } from 'vitest';

/** Text of ours whose tokens merge across the seams of a template: accents, CJK, emoji, quotes, runs of spaces. */
function mixed(seed: number, pieces: number): string {
  const parts = [
    'x',
    ' ',
    '  ',
    '\n',
    'é',
    '日本',
    '==',
    '(',
    ')',
    'def',
    'return',
    '"""',
    '😀',
    '1',
    'ab',
    '\t',
    '__',
  ];
  let state = seed;
  return Array.from({ length: pieces }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return parts[state % parts.length];
  }).join('');
}

/**
 * The prompts' cut (prompts/prompt-cut.ts) with a real tokenizer (metrics/prompt-tokenizers.ts), as the prompts step
 * combines them: BPE tokens merge across the seams of a template and split multi-byte characters, which a
 * tokenizer of one token per character never shows.
 */
describe('a prompt cut with a real tokenizer', () => {
  const tokenizer = promptTokenizer('cl100k');

  it('is within the context when its target fits, whatever the text at the seams; it never splits a character', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const before = `${mixed(seed, 400)}\n`;
      const after = `${mixed(seed + 1000, 400)}\n`;
      const definitionStart = before.split('\n').length;
      const site = {
        file: 'm.py',
        qualname: 'f',
        preText: `${before}def f(a):\n    """Doc."""\n${after}`,
        definitionStart,
        bodyLine: definitionStart + 2,
      };
      const callees = {
        given: [{ file_path: 'a.py', function_name: 'g', line: 1, score: null, text: mixed(seed + 7, 80) }],
        retrieval: { method: 'callees', level_mode: 'repocod-v4', not_given: [] },
      } as const;
      for (const context of [300, 420, 500, 640]) {
        const file = taskPrompt({ instanceId: 'i', repository: 'r' }, site, 'current-file', tokenizer, context);
        const called = taskPrompt({ instanceId: 'i', repository: 'r' }, site, 'callees', tokenizer, context, callees);
        for (const prompt of [file, called]) {
          expect(prompt.tokens.input, `seed ${seed}, ${prompt.setting}, ${context}`).toBeLessThanOrEqual(context);
          expect(prompt.input).not.toContain('\uFFFD');
        }
      }
    }
  });
});
