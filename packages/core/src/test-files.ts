import { RepocodError } from './errors.js';

/**
 * Which files are test code, never targets: pytest's test file names (test_*.py, *_test.py),
 * conftest.py, and anything under a tests/ or testing/ folder. The folders are a curator's choice
 * (`testCode.folderNames` in the config file): some projects ship library code under testing/
 * (xarray.testing's assertions, sympy.testing), which REPOCOD-style curation may want to keep.
 */
export interface TestCodePatterns {
  readonly fileNames: readonly RegExp[];
  readonly folderNames: readonly string[];
}

export const PYTEST_TEST_CODE: TestCodePatterns = {
  fileNames: [/^test_.*\.py$/, /^.*_test\.py$/, /^conftest\.py$/],
  folderNames: ['tests', 'testing'],
};

/** `relativePath` uses `/` separators and is relative to the repository root. */
export function isTestCodePath(relativePath: string, patterns: TestCodePatterns = PYTEST_TEST_CODE): boolean {
  const parts = relativePath.split('/');
  const fileName = parts[parts.length - 1] ?? '';
  if (patterns.fileNames.some((pattern) => pattern.test(fileName))) return true;
  return parts.slice(0, -1).some((folder) => patterns.folderNames.includes(folder));
}

/** Reads `testCode` from a curator's config file: `{ "folderNames": ["tests", "testing"] }`. */
export function parseTestCodePatterns(value: unknown, source: string): TestCodePatterns {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RepocodError(
      'config-invalid',
      `${source}: testCode must be an object like { "folderNames": ["tests", "testing"] }`,
    );
  }
  const unknownField = Object.keys(value).find((key) => key !== 'folderNames');
  if (unknownField !== undefined)
    throw new RepocodError('config-invalid', `${source}: unknown field "${unknownField}" (known: folderNames)`);
  const folders = (value as Record<string, unknown>).folderNames ?? PYTEST_TEST_CODE.folderNames;
  if (!Array.isArray(folders) || !folders.every((folder) => typeof folder === 'string' && /^[^/]+$/.test(folder))) {
    throw new RepocodError(
      'config-invalid',
      `${source}: field "folderNames" must be a list of folder names without "/" (got ${JSON.stringify(folders)})`,
    );
  }
  return { ...PYTEST_TEST_CODE, folderNames: folders as string[] };
}
