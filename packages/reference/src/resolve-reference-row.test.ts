import { linesPatch } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { blankReferenceRow } from './read-reference-rows.js';
import type { ReferenceRow } from './reference-row.js';
import { type ResolvableFunction, resolveReferenceRow } from './resolve-reference-row.js';

const SOURCE = [
  'class Box:', //  1
  '    def area(self):', //  2
  '        """Box area."""', //  3
  '        return self.w * self.h', //  4
  '', //  5
  'class Circle:', //  6
  '    def area(self):', //  7
  '        """Circle area."""', //  8
  '        return 3.14 * self.r ** 2', //  9
  '', // 10
  'def scale(x):', // 11
  '    """Scale."""', // 12
  '    return 2 * x', // 13
  '',
].join('\n');

const lines = SOURCE.split('\n');
const text = (from: number, to: number): string => `${lines.slice(from - 1, to).join('\n')}\n`;
function fn(qualname: string, start: number, docEnd: number, end: number, extra: Partial<ResolvableFunction> = {}) {
  return {
    file: 'pkg/shapes.py',
    qualname,
    isCandidate: true,
    full: text(start, end),
    prompt: text(start, docEnd),
    solution: text(docEnd + 1, end),
    definitionStart: start,
    definitionEnd: end,
    solutionStart: docEnd + 1,
    hasRelevantTests: null,
    ...extra,
  } satisfies ResolvableFunction;
}
const FUNCTIONS: ResolvableFunction[] = [
  fn('Box.area', 2, 3, 4, { hasRelevantTests: true }),
  fn('Circle.area', 7, 8, 9, { hasRelevantTests: false }),
  fn('scale', 11, 12, 13, { isCandidate: false }),
  { ...fn('scale', 11, 12, 13), file: 'pkg/other.py' },
];

function row(fields: Partial<ReferenceRow>): ReferenceRow {
  return { ...blankReferenceRow(1, 'ref.jsonl:1', 'repocod', 'demo'), ...fields };
}
const CONTEXT = {
  repository: 'demo',
  functions: FUNCTIONS,
  baseCommit: 'abcdef1234567890',
  knownRepositories: ['demo'],
};

describe('resolveReferenceRow', () => {
  it('resolves by name within the file and confirms by full_function, exactly or modulo whitespace', () => {
    const exact = resolveReferenceRow(
      row({ functionName: 'shapes.Circle.area', file: 'pkg/shapes.py', fullFunction: text(7, 9) }),
      CONTEXT,
    );
    expect(exact).toMatchObject({
      status: 'resolved',
      function: { qualname: 'Circle.area' },
      by: 'name',
      text: 'exact',
      nameMatches: 1,
    });
    // tree-sitter's node text starts at `def`, without the first line's indentation
    const dedented = resolveReferenceRow(
      row({ functionName: 'Circle.area', file: 'pkg/shapes.py', fullFunction: text(7, 9).trimStart() }),
      CONTEXT,
    );
    expect(dedented).toMatchObject({ status: 'resolved', text: 'whitespace', textField: 'full_function' });
  });

  it('tells two methods of one name apart by their text, and follows the evaluator without a text', () => {
    const byPrompt = resolveReferenceRow(
      row({ functionName: 'area', file: 'pkg/shapes.py', prompt: text(7, 8) }),
      CONTEXT,
    );
    expect(byPrompt).toMatchObject({ status: 'resolved', function: { qualname: 'Circle.area' }, textField: 'prompt' });
    const first = resolveReferenceRow(row({ functionName: 'area', file: 'pkg/shapes.py' }), CONTEXT);
    expect(first).toMatchObject({ status: 'resolved', function: { qualname: 'Box.area' }, text: 'not-given' });
    expect(first.notes[0]).toContain("the first, as REPOCOD's evaluator takes it");
  });

  it('narrows a bare name across the repository by candidates, then by relevant tests, else ambiguous', () => {
    const area = resolveReferenceRow(row({ form: 'names', functionName: 'area' }), CONTEXT);
    expect(area).toMatchObject({ status: 'resolved', function: { qualname: 'Box.area' }, nameMatches: 2 });
    expect(area.notes[0]).toContain('relevant tests');
    const scale = resolveReferenceRow(row({ form: 'names', functionName: 'scale' }), CONTEXT);
    expect(scale).toMatchObject({ status: 'resolved', function: { file: 'pkg/other.py' } });
    const both = resolveReferenceRow(row({ form: 'names', functionName: 'area' }), {
      ...CONTEXT,
      functions: FUNCTIONS.map((f) => ({ ...f, hasRelevantTests: null })),
    });
    expect(both).toMatchObject({ status: 'unresolved', reason: 'ambiguous', matches: [{}, {}] });
  });

  it('marks a function outside our candidates, and names a changed body with a short diff', () => {
    const outside = resolveReferenceRow(row({ functionName: 'scale', file: 'pkg/shapes.py' }), CONTEXT);
    expect(outside).toMatchObject({ status: 'resolved', outsideCandidates: true });
    const changed = resolveReferenceRow(
      row({ functionName: 'scale', file: 'pkg/shapes.py', fullFunction: `${text(11, 12)}    return 3 * x\n` }),
      CONTEXT,
    );
    expect(changed).toMatchObject({ status: 'unresolved', reason: 'text-differs' });
    if (changed.status !== 'unresolved') throw new Error('expected unresolved');
    expect(changed.difference).toBe(
      'first difference at line 3:\n- ours       return 2 * x\n- ours   \n+ theirs     return 3 * x\n+ theirs ',
    );
  });

  it('names a renamed function, an absent file, an unknown repository and a missing extraction', () => {
    const renamed = resolveReferenceRow(
      row({ functionName: 'double', file: 'pkg/shapes.py', fullFunction: text(11, 13) }),
      CONTEXT,
    );
    expect(renamed).toMatchObject({ status: 'unresolved', reason: 'no-such-function' });
    expect(renamed.status === 'unresolved' && renamed.message).toBe(
      'no function of pkg/shapes.py is named double; pkg/shapes.py::scale has its full_function (renamed?)',
    );
    expect(resolveReferenceRow(row({ functionName: 'scale', file: 'pkg/gone.py' }), CONTEXT)).toMatchObject({
      reason: 'file-absent',
      message: 'target_module_path pkg/gone.py is not a Python file at the commit',
    });
    const suffix = resolveReferenceRow(row({ functionName: 'scale', file: 'demo/pkg/other.py' }), CONTEXT);
    expect(suffix).toMatchObject({
      status: 'resolved',
      notes: ['target_module_path demo/pkg/other.py taken as pkg/other.py'],
    });
    expect(resolveReferenceRow(row({ functionName: 'f' }), { ...CONTEXT, repository: null })).toMatchObject({
      reason: 'unknown-repository',
      message: 'repository "demo" is not in the manifest (it has demo)',
    });
    expect(resolveReferenceRow(row({ functionName: 'f' }), { ...CONTEXT, functions: null })).toMatchObject({
      reason: 'not-extracted',
    });
  });

  it('resolves a seed row by the range its pre patch removes, and names a base commit that differs', () => {
    const pre = linesPatch('pkg/shapes.py', SOURCE, [{ start: 9, end: 9, lines: [] }]);
    const seed = resolveReferenceRow(row({ form: 'seed', preCode: pre, baseCommit: 'abcdef1' }), CONTEXT);
    expect(seed).toMatchObject({
      status: 'resolved',
      function: { qualname: 'Circle.area' },
      by: 'pre-patch',
      text: 'exact',
    });
    expect(seed.notes).toEqual([]);
    const other = resolveReferenceRow(row({ form: 'seed', preCode: pre, baseCommit: '1234567' }), CONTEXT);
    expect(other.notes).toEqual(["base_commit 1234567 is not the manifest's abcdef1234567890"]);
    const partial = linesPatch('pkg/shapes.py', SOURCE, [{ start: 13, end: 13, lines: [] }]);
    expect(resolveReferenceRow(row({ form: 'seed', preCode: partial }), CONTEXT)).toMatchObject({ status: 'resolved' });
    const inside = linesPatch('pkg/shapes.py', SOURCE, [{ start: 12, end: 13, lines: [] }]);
    expect(resolveReferenceRow(row({ form: 'seed', preCode: inside }), CONTEXT)).toMatchObject({
      reason: 'no-such-function',
      message: 'pre_patches.code removes lines 12-13 of pkg/shapes.py; the solution of scale is lines 13-13',
    });
    const adds = linesPatch('pkg/shapes.py', SOURCE, [{ start: 13, end: 13, lines: ['    pass\n'] }]);
    expect(resolveReferenceRow(row({ form: 'seed', preCode: adds }), CONTEXT)).toMatchObject({
      reason: 'pre-patch-unreadable',
    });
  });
});
