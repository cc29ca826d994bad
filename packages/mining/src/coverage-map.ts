import { RepocodError } from '@repocod/core';

import type { CoverageEntry } from '@repocod/core';

export type { CoverageEntry } from '@repocod/core';

/** Reads the coverage plugin's artifact: one JSON line per target function. */
export function parseCoverageArtifact(text: string, source: string): Map<string, CoverageEntry> {
  const entries = new Map<string, CoverageEntry>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // The plugin writes the file at the very end: a cut line means the run died while writing.
      throw new RepocodError(
        'tests-cannot-run',
        `${source}, line ${index + 1}: not JSON (${error instanceof Error ? error.message : String(error)}); rerun ` +
          `the ` +
          `mining`,
      );
    }
    const entry = value as { id?: unknown; tests?: unknown; subprocessTests?: unknown; importTime?: unknown };
    if (
      typeof entry.id !== 'string' ||
      !isStringList(entry.tests) ||
      !isStringList(entry.subprocessTests) ||
      typeof entry.importTime !== 'boolean'
    ) {
      throw new RepocodError(
        'tests-cannot-run',
        `${source}, line ${index + 1}: expected {id, tests, subprocessTests, importTime}, got ${line.slice(0, 200)}`,
      );
    }
    entries.set(entry.id, { tests: entry.tests, subprocessTests: entry.subprocessTests, importTime: entry.importTime });
  }
  return entries;
}

/** One function's entries from two shards of the traced run: what either saw. */
export function mergeCoverage(a: CoverageEntry | undefined, b: CoverageEntry): CoverageEntry {
  if (a === undefined) return b;
  return {
    tests: [...new Set([...a.tests, ...b.tests])].sort(),
    subprocessTests: [...new Set([...a.subprocessTests, ...b.subprocessTests])].sort(),
    importTime: a.importTime || b.importTime,
  };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * How the fast mode finds a function's relevant tests:
 * - `whole-suite`: like the exact mode, when the coverage run did not report the function;
 * - `import-time`: for code that runs at import or collection time, where no test context tells who
 *   depends on it: with the mutation in the file, the whole suite is collected (the tests it makes
 *   uncollectable are relevant) and the candidate tests, those whose own run executes the body, run;
 * - `in-process`: only the candidate tests run, with the code object swapped inside a pytest process
 *   shared by many mutations; `onDisk` when tests reach the function through child processes, which
 *   then read the mutation from the file;
 * - `none`: no passing test runs the function, so none can be relevant.
 */
export type Route =
  | { readonly kind: 'whole-suite'; readonly why: string }
  | { readonly kind: 'import-time'; readonly candidates: readonly string[] }
  | { readonly kind: 'in-process'; readonly candidates: readonly string[]; readonly onDisk: boolean }
  | { readonly kind: 'none'; readonly reason: string };

export function routeFunction(entry: CoverageEntry | undefined, passing: ReadonlySet<string>): Route {
  if (entry === undefined) return { kind: 'whole-suite', why: 'the coverage run did not report this function' };
  const executed = new Set([...entry.tests, ...entry.subprocessTests]);
  if (entry.importTime) {
    return { kind: 'import-time', candidates: [...executed].filter((nodeId) => passing.has(nodeId)).sort() };
  }
  if (executed.size === 0) return { kind: 'none', reason: 'no test runs its body' };
  const candidates = [...executed].filter((nodeId) => passing.has(nodeId)).sort();
  if (candidates.length === 0)
    return { kind: 'none', reason: `only tests that do not pass at the base commit run its body (${executed.size})` };
  return { kind: 'in-process', candidates, onDisk: entry.subprocessTests.some((nodeId) => passing.has(nodeId)) };
}
