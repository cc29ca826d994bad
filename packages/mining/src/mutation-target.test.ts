import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MiningFunction } from './mutation-target.js';
import { mutatedSource, mutationTarget } from './mutation-target.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The patch applied by the real `git apply`, and the result compiled by the real Python. */
function applyAndCompile(text: string, patch: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'mutation-'));
  folders.push(folder);
  execFileSync('git', ['init', '-q'], { cwd: folder });
  writeFileSync(join(folder, 'm.py'), text);
  writeFileSync(join(folder, 'p.diff'), patch);
  execFileSync('git', ['apply', '--check', 'p.diff'], { cwd: folder });
  execFileSync('git', ['apply', 'p.diff'], { cwd: folder });
  execFileSync('python3', [
    '-c',
    'import sys; compile(open(sys.argv[1], "rb").read(), sys.argv[1], "exec")',
    join(folder, 'm.py'),
  ]);
  return readFileSync(join(folder, 'm.py'), 'utf8');
}

function fn(
  spans: { definition: [number, number]; signature: [number, number]; docstring: [number, number] | null },
  qualname = 'f',
): MiningFunction {
  return {
    id: `r:m.py:${qualname}`,
    file: 'm.py',
    name: qualname.split('.').at(-1) ?? qualname,
    qualname,
    definitionSpan: { start: spans.definition[0], end: spans.definition[1] },
    signatureSpan: { start: spans.signature[0], end: spans.signature[1] },
    docstringSpan: spans.docstring === null ? null : { start: spans.docstring[0], end: spans.docstring[1] },
  };
}

describe('mutationTarget', () => {
  it('replaces the solution by one raise, keeping decorators, signature and docstring', () => {
    const text = [
      'import functools',
      '',
      '',
      '@functools.cache',
      'def f(a,',
      '      b):',
      '    """Doc',
      '    more."""',
      '    # a comment first',
      '    x = a',
      '    return x + b',
      '',
      '',
      'y = 1',
      '',
    ].join('\n');
    const target = mutationTarget(fn({ definition: [4, 11], signature: [5, 6], docstring: [7, 8] }), text);
    expect(target).toMatchObject({
      firstLine: 4,
      bodyStart: 9,
      bodyEnd: 11,
      replacement: '    raise AssertionError("repocod-kit mining: the body of f was removed")',
    });
    const mutated = applyAndCompile(text, target.patch);
    expect(mutated).toBe(mutatedSource(target, text));
    expect(mutated).toContain(
      '@functools.cache\ndef f(a,\n      b):\n    """Doc\n    more."""\n    raise AssertionError(',
    );
    expect(mutated).toContain('\n\n\ny = 1\n');
  });

  it('keeps tabs, CRLF endings and a method nested in a class', () => {
    const text = ['class C:', '\tdef m(self):', '\t\t"""Doc."""', '\t\treturn 1', ''].join('\r\n');
    const target = mutationTarget(fn({ definition: [2, 4], signature: [2, 2], docstring: [3, 3] }, 'C.m'), text);
    expect(target.replacement).toBe('\t\traise AssertionError("repocod-kit mining: the body of C.m was removed")');
    expect(applyAndCompile(text, target.patch)).toBe(
      ['class C:', '\tdef m(self):', '\t\t"""Doc."""', target.replacement, ''].join('\r\n'),
    );
  });

  it('inserts the raise after a docstring-only body, also at the end of a file without a newline', () => {
    const text = 'def f():\n    """Only a docstring."""';
    const target = mutationTarget(fn({ definition: [1, 2], signature: [1, 1], docstring: [2, 2] }), text);
    expect(target).toMatchObject({ bodyStart: 3, bodyEnd: 2 });
    expect(applyAndCompile(text, target.patch)).toBe(`def f():\n    """Only a docstring."""\n${target.replacement}\n`);
  });

  it('takes the indentation from the docstring when the body is only comments', () => {
    const text = ['def f():', '  """Doc."""', '# flush-left comment', ''].join('\n');
    const target = mutationTarget(fn({ definition: [1, 3], signature: [1, 1], docstring: [2, 2] }), text);
    expect(target.replacement.startsWith('  raise')).toBe(true);
    applyAndCompile(text, target.patch);
  });
});
