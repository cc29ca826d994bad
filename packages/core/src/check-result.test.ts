import { describe, expect, it } from 'vitest';
import { decodeCheckResults } from './check-result.js';

describe('decodeCheckResults', () => {
  const stored = {
    check: 'collects',
    status: 'passed',
    tests: [],
    detail: 'the pre state collects',
    log: null,
    runIds: ['r1'],
    bodyNeededAtCollection: true,
  };

  it('reads what validation stored, the collect check with its extra field', () => {
    expect(decodeCheckResults(JSON.stringify([stored]), 'validations.checks of t')).toEqual([stored]);
  });

  it('reads a row from before run ids were kept as having none', () => {
    const { runIds: _runIds, bodyNeededAtCollection: _body, ...older } = stored;
    expect(decodeCheckResults(JSON.stringify([older]), 'w')[0]?.runIds).toEqual([]);
  });

  it('names the row, the item and the field that is wrong', () => {
    expect(() => decodeCheckResults('[{"check":"collects","status":"ok"}]', 'validations.checks of t')).toThrow(
      'validations.checks of t[0]: field "status" is "ok", not one of passed, failed, infra-error; rebuild the row',
    );
    expect(() => decodeCheckResults('{', 'validations.checks of t')).toThrow(/^validations\.checks of t: not JSON/);
    expect(() => decodeCheckResults('{}', 'validations.checks of t')).toThrow(/of t: not a list/);
  });
});
