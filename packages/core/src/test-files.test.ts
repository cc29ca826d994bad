import { describe, expect, it } from 'vitest';
import { PYTEST_TEST_CODE, isTestCodePath, parseTestCodePatterns } from './test-files.js';

describe('isTestCodePath', () => {
  it.each([
    ['test_models.py', true],
    ['pkg/models_test.py', true],
    ['conftest.py', true],
    ['pkg/tests/helpers.py', true],
    ['pkg/testing/assertions.py', true],
    ['test/support.py', false],
    ['pkg/testutils.py', false],
    ['pkg/latest.py', false],
    ['pkg/test_data/readme.txt', false],
  ])('%s → %s', (path, expected) => {
    expect(isTestCodePath(path)).toBe(expected);
  });

  it('follows custom patterns', () => {
    expect(isTestCodePath('pkg/testing/a.py', { ...PYTEST_TEST_CODE, folderNames: ['tests'] })).toBe(false);
  });
});

describe('parseTestCodePatterns', () => {
  it('reads folder names and names a wrong field', () => {
    expect(parseTestCodePatterns({ folderNames: ['tests'] }, 'cfg.json').folderNames).toEqual(['tests']);
    expect(parseTestCodePatterns({}, 'cfg.json').folderNames).toEqual(['tests', 'testing']);
    expect(() => parseTestCodePatterns({ folders: [] }, 'cfg.json')).toThrow(/cfg.json: unknown field "folders"/);
    expect(() => parseTestCodePatterns({ folderNames: ['a/b'] }, 'cfg.json')).toThrow(/field "folderNames"/);
  });
});
