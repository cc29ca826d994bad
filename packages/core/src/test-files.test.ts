import { describe, expect, it } from 'vitest';
import { PYTEST_TEST_CODE, isTestCodePath } from './test-files.js';

describe('isTestCodePath', () => {
  it.each([
    ['test_models.py', true],
    ['pkg/models_test.py', true],
    ['conftest.py', true],
    ['pkg/tests/helpers.py', true],
    ['pkg/testing/assertions.py', true],
    ['test/support.py', true],
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
