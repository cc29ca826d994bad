import type { FunctionRecord } from '../function-record.js';

/** Test support: a module-level function with an 11-line docstring and two code lines, as overridden. */
export function functionRecord(overrides: Partial<FunctionRecord>): FunctionRecord {
  return {
    file: 'pkg/mod.py',
    name: 'f',
    qualname: 'f',
    className: null,
    nested: false,
    kind: 'function',
    isAsync: false,
    decorators: [],
    isTestCode: false,
    definitionSpan: { start: 1, end: 20 },
    signatureSpan: { start: 1, end: 1 },
    docstringSpan: { start: 2, end: 12 },
    bodySpan: { start: 2, end: 20 },
    slices: { prompt: '', solution: '    x = 1\n    return x\n', full: '' },
    parameterCount: 0,
    ...overrides,
  };
}
