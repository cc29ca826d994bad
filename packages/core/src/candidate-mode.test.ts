import { describe, expect, it } from 'vitest';
import {
  CANDIDATE_MODES,
  codeLinesAfterDocstring,
  inCandidateMode,
  namedByTests,
  parseCandidateMode,
  REPOCOD_CANDIDATE_MODE,
} from './candidate-mode.js';
import { functionRecord } from './testing/function-record-fixture.js';

const record = functionRecord;

const tests = { calls: new Set(['f', 'Grid', 'copy']), attributes: new Set(['logger', 'f']) };

describe('codeLinesAfterDocstring', () => {
  it('counts the lines of the solution that hold code: not blank, not only a comment', () => {
    const solution = '\n    # why\n    x = 1  # inline\n\n    return x\n';
    expect(codeLinesAfterDocstring(record({ slices: { prompt: '', solution, full: '' } }))).toBe(2);
    expect(codeLinesAfterDocstring(record({ slices: { prompt: '', solution: '', full: '' } }))).toBe(0);
  });
});

describe('namedByTests', () => {
  it('takes a call by name, a class call for __init__ and an attribute read for a property', () => {
    expect(namedByTests(record({}), tests)).toBe(true);
    expect(namedByTests(record({ name: 'g', qualname: 'g' }), tests)).toBe(false);
    const init = { name: '__init__', qualname: 'Grid.__init__', className: 'Grid', kind: 'method' as const };
    expect(namedByTests(record(init), tests)).toBe(true);
    expect(namedByTests(record({ ...init, qualname: 'Other.__init__', className: 'Other' }), tests)).toBe(false);
    // A nested class: the call names the innermost class.
    expect(namedByTests(record({ ...init, qualname: 'Outer.Grid.__init__', className: 'Outer.Grid' }), tests)).toBe(
      true,
    );
    const property = { name: 'logger', qualname: 'App.logger', className: 'App', kind: 'property' as const };
    expect(namedByTests(record(property), tests)).toBe(true);
    // A property is read, not called: a call of the same name does not count, a read does.
    expect(namedByTests(record({ ...property, name: 'copy', qualname: 'App.copy' }), tests)).toBe(false);
  });
});

describe('inCandidateMode', () => {
  const oneLine = record({ name: 'copy', slices: { prompt: '', solution: '    return deepcopy(self)\n', full: '' } });
  const uncalled = record({ name: 'g', qualname: 'g' });

  it('keeps every candidate under docstring, and narrows under the others', () => {
    expect([oneLine, uncalled].map((fn) => inCandidateMode(fn, CANDIDATE_MODES.docstring))).toEqual([true, true]);
    expect([oneLine, uncalled].map((fn) => inCandidateMode(fn, CANDIDATE_MODES['docstring-code2']))).toEqual([
      false,
      true,
    ]);
    expect([oneLine, uncalled].map((fn) => inCandidateMode(fn, CANDIDATE_MODES.called, tests))).toEqual([true, false]);
    expect([oneLine, uncalled].map((fn) => inCandidateMode(fn, CANDIDATE_MODES['called-code2'], tests))).toEqual([
      false,
      false,
    ]);
  });

  it('refuses to guess without the test names a mode needs', () => {
    expect(() => inCandidateMode(uncalled, CANDIDATE_MODES.called)).toThrow(/needs the test functions' names/);
  });
});

describe('parseCandidateMode', () => {
  it('reads the names and repocod, and names the choices for anything else', () => {
    expect(parseCandidateMode('called').name).toBe('called');
    expect(parseCandidateMode('repocod').name).toBe(REPOCOD_CANDIDATE_MODE);
    expect(() => parseCandidateMode('calls')).toThrow(
      '--candidates: unknown candidate mode "calls" (known: repocod, docstring, docstring-code2, called, called-code2)',
    );
  });
});
