import { describe, expect, it } from 'vitest';
import { extractionProblem, type FileExtraction } from './file-extraction.js';
import { okExtraction, syntheticFunction } from './testing/test-support.js';

const broken = (file: string): FileExtraction => ({
  ...okExtraction(file, 1),
  status: 'syntax-error',
  issue: { file, kind: 'syntax-error', lines: [3, 9], message: 'invalid syntax' },
});

describe('extractionProblem', () => {
  it('accepts consistent extractions', () => {
    expect(extractionProblem([okExtraction('a.py', 2), broken('b.py')])).toBeNull();
    expect(extractionProblem([])).toBeNull();
  });

  it('rejects a file listed twice', () => {
    expect(extractionProblem([okExtraction('a.py', 1), okExtraction('a.py', 0)])).toBe('a.py is listed twice');
  });

  it('rejects a status that disagrees with the issue', () => {
    expect(extractionProblem([{ ...broken('b.py'), status: 'ok' }])).toMatch(/status is ok but an issue/);
    expect(extractionProblem([{ ...okExtraction('a.py', 0), status: 'binary' }])).toMatch(/no issue is given/);
    expect(extractionProblem([{ ...broken('b.py'), status: 'binary' }])).toMatch(
      /status is binary but the issue is syntax-error/,
    );
  });

  it('rejects an issue or a function that names another file', () => {
    const issue = { file: 'other.py', kind: 'syntax-error', lines: [], message: '' } as const;
    expect(extractionProblem([{ ...broken('b.py'), issue }])).toMatch(/another file, other\.py/);
    const stray = { ...okExtraction('a.py', 0), functions: [syntheticFunction('z.py', 0)] };
    expect(extractionProblem([stray])).toBe('a.py: function Widget.method_0 says it is in z.py');
  });
});
