/**
 * Which files pytest would treat as test code. REPOCOD never targets them: test files, conftest.py,
 * and anything under a tests/ or testing/ folder (also test/, which CPython-style layouts use).
 */
export interface TestCodePatterns {
  readonly fileNames: readonly RegExp[];
  readonly folderNames: readonly string[];
}

export const PYTEST_TEST_CODE: TestCodePatterns = {
  fileNames: [/^test_.*\.py$/, /^.*_test\.py$/, /^conftest\.py$/],
  folderNames: ['tests', 'test', 'testing'],
};

/** `relativePath` uses `/` separators and is relative to the repository root. */
export function isTestCodePath(relativePath: string, patterns: TestCodePatterns = PYTEST_TEST_CODE): boolean {
  const parts = relativePath.split('/');
  const fileName = parts[parts.length - 1] ?? '';
  if (patterns.fileNames.some((pattern) => pattern.test(fileName))) return true;
  return parts.slice(0, -1).some((folder) => patterns.folderNames.includes(folder));
}
