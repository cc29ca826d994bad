import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCodePatterns, TestNames } from '@repocod/core';
import { isTestCodePath, PYTEST_TEST_CODE } from '@repocod/core';
import { listPythonFiles, loadPythonParser, repositoryTestReferences } from '@repocod/python';

/**
 * What the test functions of a checkout call and read (candidate modes that ask for a test's name).
 * Only the test modules are read, by the extraction's test-code rule.
 */
export async function repositoryTestNames(
  root: string,
  testCode: TestCodePatterns = PYTEST_TEST_CODE,
): Promise<TestNames> {
  const isTest = (file: string): boolean => isTestCodePath(file, testCode);
  const texts = new Map(
    listPythonFiles(root)
      .filter(isTest)
      .map((file) => [file, readFileSync(join(root, file), 'utf8')]),
  );
  return repositoryTestReferences(await loadPythonParser(), texts, isTest);
}
