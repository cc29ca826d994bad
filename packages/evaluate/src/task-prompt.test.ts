import { linesPatch } from '@repocod/core';
import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { completionSite } from './completion-patch.js';
import { currentFileText, REPOCOD_SYSTEM_PROMPT } from './repocod-prompt-text.js';
import { taskPrompt } from './task-prompt.js';
import { BOX } from './testing/box-checkout.js';

// Box.area's body (lines 11-12) removed: the pre state a prompt is made from.
const PRE_CODE = linesPatch('pkg/box.py', BOX, [{ start: 11, end: 12, lines: [] }]);
/** A tokenizer of ours for the test: one token per character, so that cuts are exact. */
const CHARACTERS = {
  name: 'characters',
  count: (text: string) => text.length,
  lastTokens: (text: string, max: number) => (max <= 0 ? '' : text.slice(-max)),
};

describe('taskPrompt', async () => {
  const site = completionSite(await loadPythonParser(), BOX, PRE_CODE);
  const task = { instanceId: 'box-pkg.box.Box.area' };

  it("gives the current file around the target in REPOCOD's template, without the body", () => {
    const prompt = taskPrompt(task, site, 'current-file', CHARACTERS);
    expect(prompt.target).toBe(
      '    @functools.cache\n    def area(self, scale):\n        """The area.\n\n        Scaled.\n        """',
    );
    expect(prompt.context).toEqual({
      before: 'import functools\n\n\nclass Box:',
      after: 'def top():\n    """Top."""\n    return 1',
    });
    expect(prompt.prompt).toBe(
      currentFileText('pkg/box.py', prompt.context?.before ?? '', prompt.context?.after ?? '', prompt.target),
    );
    expect(prompt.input).toBe(`${REPOCOD_SYSTEM_PROMPT}\n${prompt.prompt}`);
    expect(prompt.input).not.toContain('width = self.width * scale');
    expect([prompt.function_name, prompt.file_path, prompt.truncated]).toEqual([
      'Box.area',
      'pkg/box.py',
      { before: 0, after: 0 },
    ]);
  });

  it('cuts the context before from its beginning, then the context after from its end, to fit the model', () => {
    const whole = taskPrompt(task, site, 'current-file', CHARACTERS);
    const fit = taskPrompt(task, site, 'current-file', CHARACTERS, whole.tokens.input - 10);
    expect(fit.context?.before).toBe('ctools\n\n\nclass Box:');
    expect(fit.context?.after).toBe(whole.context?.after);
    expect(fit.tokens.input).toBeLessThanOrEqual(whole.tokens.input - 10);
    const tight = taskPrompt(task, site, 'current-file', CHARACTERS, whole.tokens.input - 50);
    expect(tight.context).toEqual({ before: '', after: 'def top():' });
    expect(tight.truncated.before).toBeGreaterThan(0);
    expect(tight.target).toBe(whole.target);
  });

  it('gives the signature and docstring alone for the baseline', () => {
    const prompt = taskPrompt(task, site, 'baseline', CHARACTERS, 10);
    expect(prompt.context).toBeNull();
    expect(prompt.truncated).toEqual({ before: 0, after: 0 });
    expect(prompt.prompt).toContain(
      `## File path: pkg/box.py\n\n### Target function to complete\n\n\`\`\`python\n${prompt.target}\n`,
    );
    expect(prompt.prompt).not.toContain('class Box');
  });
});
