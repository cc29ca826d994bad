import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linesPatch, PrePatchShapeError, removedBody } from '@repocod/core';
import { loadPythonParser } from '@repocod/python';
import { afterAll, describe, expect, it } from 'vitest';
import { CompletionSiteError, completionPatch, completionSite } from './completion-patch.js';
import { BOX as BASE } from './testing/box-checkout.js';

// The task's code pre patch: lines 11-12 (the body after the docstring of Box.area) removed.
const PRE_CODE = linesPatch('pkg/box.py', BASE, [{ start: 11, end: 12, lines: [] }]);

const folder = mkdtempSync(join(tmpdir(), 'repocod-completion-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The file after `git apply` of the pre patch, then the completion's patch, in a real repository. */
function applied(patch: string): string {
  const repo = mkdtempSync(join(folder, 'r'));
  execFileSync('git', ['init', '-q', repo]);
  execFileSync('mkdir', ['-p', join(repo, 'pkg')]);
  writeFileSync(join(repo, 'pkg/box.py'), BASE);
  for (const [index, diff] of [PRE_CODE, patch].entries()) {
    writeFileSync(join(repo, `${index}.diff`), diff);
    execFileSync('git', ['apply', `${index}.diff`], { cwd: repo });
  }
  return readFileSync(join(repo, 'pkg/box.py'), 'utf8');
}

describe('removedBody', () => {
  it("reads the pre patch's removed range", () => {
    expect(removedBody(PRE_CODE)).toEqual({ file: 'pkg/box.py', start: 11, end: 12 });
  });
  it('refuses a patch that adds lines', () => {
    expect(() => removedBody('--- a/x.py\n+++ b/x.py\n@@ -1,1 +1,1 @@\n-a\n+b\n')).toThrow(PrePatchShapeError);
  });
});

describe('completionPatch', async () => {
  const parser = await loadPythonParser();
  const site = completionSite(parser, BASE, PRE_CODE);

  it('finds the function whose body the pre patch removes', () => {
    expect(site).toMatchObject({
      file: 'pkg/box.py',
      qualname: 'Box.area',
      definitionStart: 5,
      defLine: 6,
      bodyLine: 11,
    });
    expect(site.bodyIndent).toBe('        ');
  });

  it('inserts a body after the prompt, re-indented to the docstring', () => {
    const patch = completionPatch(site, 'w = self.width * scale\nreturn w * self.height\n');
    expect(patch?.shape).toBe('body');
    expect(applied(patch?.patch ?? '')).toBe(
      BASE.replace(
        '        width = self.width * scale\n        return width',
        '        w = self.width * scale\n        return w',
      ),
    );
  });

  it('replaces the function with a whole definition written at column 0, keeping its decorators', () => {
    const completion = '```python\ndef area(self, scale):\n    """Mine."""\n    return 0\n```\nsome prose';
    const patch = completionPatch(site, completion);
    expect(patch?.shape).toBe('definition');
    const text = applied(patch?.patch ?? '');
    expect(text).toContain(
      '    @functools.cache\n    def area(self, scale):\n        """Mine."""\n        return 0\n\n\ndef top',
    );
  });

  it('replaces the decorators too when the definition brings its own', () => {
    const patch = completionPatch(site, '@property\ndef area(self, scale):\n    return 2');
    expect(applied(patch?.patch ?? '')).toContain(
      'class Box:\n    @property\n    def area(self, scale):\n        return 2\n',
    );
  });

  it('drops a closing fence never opened and reads leading tabs as levels (completion-code.ts)', () => {
    const fenced = completionPatch(site, '        width = self.width * scale\n        return width * self.height\n```');
    expect(applied(fenced?.patch ?? '')).toBe(BASE);
    const tabs = completionPatch(site, '\tif scale:\n\t\treturn 0\n\treturn 1\n');
    expect(applied(tabs?.patch ?? '')).toContain(
      '        """\n        if scale:\n            return 0\n        return 1\n',
    );
  });

  it("inserts REPOCOD's way verbatim: a body after the prompt, a def from the def line, decorators kept", () => {
    const body = completionPatch(site, 'width = 1\n```\n', 'repocod');
    expect(body?.shape).toBe('body');
    expect(applied(body?.patch ?? '')).toContain('        Scaled.\n        """\nwidth = 1\n```\n\n\ndef top');
    const whole = completionPatch(site, '  def area(self, scale):\n        return 2\n', 'repocod');
    expect(whole?.shape).toBe('definition');
    expect(applied(whole?.patch ?? '')).toContain(
      '    @functools.cache\n  def area(self, scale):\n        return 2\n\n',
    );
    // No final newline: the output's last line takes in the (blank) line after it, as writelines joins them.
    const joined = completionPatch(site, '        return 3', 'repocod');
    expect(applied(joined?.patch ?? '')).toContain('        """\n        return 3\n\ndef top');
    expect(completionPatch(site, '', 'repocod')).toBeNull();
  });

  it('gives null for a completion without code', () => {
    expect(completionPatch(site, '```python\n\n```')).toBeNull();
  });

  it('names a pre patch that removes no function body', () => {
    const other = linesPatch('pkg/box.py', BASE, [{ start: 1, end: 1, lines: [] }]);
    expect(() => completionSite(parser, BASE, other)).toThrow(CompletionSiteError);
  });
});
