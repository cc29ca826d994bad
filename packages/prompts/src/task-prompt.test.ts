import { describe, expect, it } from 'vitest';
import { calleesText, currentFileText, REPOCOD_SYSTEM_PROMPT, retrievedText } from './repocod-prompt-text.js';
import type { GivenFunction, PromptFunctions } from './task-prompt.js';
import { CALLEES_CONTEXT_TOKENS, promptTarget, taskPrompt } from './task-prompt.js';
import { BOX_SITE } from './testing/box-module.js';

/** A tokenizer of ours for the test: one token per character, so that cuts are exact. */
const CHARACTERS = {
  name: 'characters',
  count: (text: string) => text.length,
  lastTokens: (text: string, max: number) => (max <= 0 ? '' : text.slice(-max)),
};

const given = (name: string, score: number | null): GivenFunction => ({
  file_path: `pkg/${name}.py`,
  function_name: name,
  line: 1,
  score,
  text: `def ${name}():\n    return "${name}"`,
});

const RETRIEVED: PromptFunctions = {
  given: [given('least', 1.5), given('middle', 2.5), given('most', 3.5)],
  retrieval: {
    method: 'bm25',
    library: 'minisearch@7.2.0',
    k1: 1.2,
    b: 0.75,
    top: 3,
    query: 'target',
    corpus: 9,
    left_out: [],
    tests_left_out: 0,
  },
};

describe('taskPrompt', () => {
  const site = BOX_SITE;
  const task = { instanceId: 'box-pkg.box.Box.area', repository: 'box' };
  const body = 'return scaled(self.width) * self.height';

  it("gives the current file around the target in REPOCOD's template, without the body", () => {
    const prompt = taskPrompt(task, site, 'current-file', CHARACTERS);
    expect(prompt.target).toBe(
      '    @functools.cache\n    def area(self, scale):\n' +
        '        """The area of the box.\n\n        Scaled by scale.\n        """',
    );
    expect(prompt.target).toBe(promptTarget(site));
    expect(prompt.context?.before).toBe('import functools\n\n\nclass Box:');
    expect(prompt.context?.after.startsWith('def perimeter(self):')).toBe(true);
    expect(prompt.prompt).toBe(
      currentFileText('pkg/box.py', prompt.context?.before ?? '', prompt.context?.after ?? '', prompt.target),
    );
    expect(prompt.input).toBe(`${REPOCOD_SYSTEM_PROMPT}\n${prompt.prompt}`);
    expect(prompt.input).not.toContain('def scaled(value):\n            return value * scale');
    expect([prompt.function_name, prompt.file_path, prompt.truncated, prompt.functions]).toEqual([
      'Box.area',
      'pkg/box.py',
      { functions: 0, before: 0, after: 0 },
      null,
    ]);
  });

  it('cuts the context before from its beginning, then the context after from its end, to fit the model', () => {
    const whole = taskPrompt(task, site, 'current-file', CHARACTERS);
    const fit = taskPrompt(task, site, 'current-file', CHARACTERS, whole.tokens.input - 10);
    expect(fit.context?.before).toBe('ctools\n\n\nclass Box:');
    expect(fit.context?.after).toBe(whole.context?.after);
    expect(fit.tokens.input).toBeLessThanOrEqual(whole.tokens.input - 10);
    const afterLength = whole.context?.after.length ?? 0;
    const tight = taskPrompt(task, site, 'current-file', CHARACTERS, whole.tokens.input - 40 - afterLength + 20);
    expect(tight.context?.before).toBe('');
    expect(tight.context?.after.length).toBeLessThan(afterLength);
    expect(tight.truncated.before).toBeGreaterThan(0);
    expect(tight.target).toBe(whole.target);
  });

  it('gives the signature and docstring alone for the baseline', () => {
    const prompt = taskPrompt(task, site, 'baseline', CHARACTERS, 10);
    expect(prompt.context).toBeNull();
    expect(prompt.truncated).toEqual({ functions: 0, before: 0, after: 0 });
    expect(prompt.prompt).toContain(
      `## File path: pkg/box.py\n\n### Target function to complete\n\n\`\`\`python\n${prompt.target}\n`,
    );
    expect(prompt.prompt).not.toContain('class Box');
  });

  it('gives retrieved functions with their paths before the target, the most relevant last', () => {
    const prompt = taskPrompt(task, site, 'bm25', CHARACTERS, null, RETRIEVED);
    expect(prompt.prompt).toBe(retrievedText(RETRIEVED.given, 'pkg/box.py', prompt.target));
    expect(prompt.prompt.indexOf('## File path: pkg/least.py')).toBeLessThan(prompt.prompt.indexOf('pkg/most.py'));
    expect(prompt.prompt).toContain('## File path: pkg/most.py\n```python\ndef most():\n    return "most"\n```\n');
    expect(prompt.prompt.trimEnd().endsWith(prompt.target)).toBe(true);
    expect([prompt.context, prompt.functions, prompt.retrieval]).toEqual([null, RETRIEVED.given, RETRIEVED.retrieval]);
    expect(prompt.input).not.toContain(body);
  });

  it('drops whole functions from the least relevant to fit the model, and never cuts the target', () => {
    const whole = taskPrompt(task, site, 'bm25', CHARACTERS, null, RETRIEVED);
    const fit = taskPrompt(task, site, 'bm25', CHARACTERS, whole.tokens.input - 5, RETRIEVED);
    expect(fit.functions?.map((fn) => fn.function_name)).toEqual(['middle', 'most']);
    expect(fit.truncated).toEqual({ functions: 1, before: 0, after: 0 });
    const none = taskPrompt(task, site, 'bm25', CHARACTERS, 10, RETRIEVED);
    expect([none.functions, none.target]).toEqual([[], whole.target]);
  });

  it("gives the callees, then the file's last 1,024 tokens before the target, for the callees setting", () => {
    const callees: PromptFunctions = {
      given: [given('helper', null)],
      retrieval: { method: 'callees', level_mode: 'repocod-v4', not_given: [] },
    };
    const long = { ...site, preText: `${'#'.repeat(3000)}\n${site.preText}`, definitionStart: 6, bodyLine: 12 };
    const prompt = taskPrompt(task, long, 'callees', CHARACTERS, null, callees);
    expect(prompt.context?.before).toHaveLength(CALLEES_CONTEXT_TOKENS - 1);
    expect(prompt.context?.before.endsWith('class Box:')).toBe(true);
    expect(prompt.context?.after).toBe('');
    expect(prompt.prompt).toBe(calleesText(callees.given, 'pkg/box.py', prompt.context?.before ?? '', prompt.target));
    expect(prompt.truncated).toEqual({ functions: 0, before: 0, after: 0 });
  });

  it('refuses functions for a setting that gives none, and none for one that needs them', () => {
    expect(() => taskPrompt(task, site, 'baseline', CHARACTERS, null, RETRIEVED)).toThrow('takes no functions');
    expect(() => taskPrompt(task, site, 'dense', CHARACTERS)).toThrow('needs functions');
  });
});
