import type { BaselineReruns, LevelMode } from '@repocod/core';
import { BASELINE_RERUNS, LEVEL_MODES } from '@repocod/core';
import { isScalar } from 'yaml';
import type { Field, ManifestDocument } from './manifest-document.js';
import { isResolutionDateText } from './resolution-date.js';

/**
 * The checks of a manifest's single values (names, versions, paths, counts and lists of them): each reads
 * one field and throws the first problem with its line. `example` is the field as a manifest writes it
 * (`timeout: 600`), quoted where an error suggests a fix.
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const PYTHON_VERSION = /^3\.\d{1,2}(\.\d{1,2})?$/;

export function parseName(document: ManifestDocument, field: Field): string {
  const name = document.string(field);
  if (!NAME.test(name.value)) {
    document.fail(
      name.line,
      name.path,
      `must start with a letter or digit and hold only letters, digits, ".", "_" and "-" (got ` +
        `${JSON.stringify(name.value)})`,
    );
  }
  return name.value;
}

/** GitHub's owner/name (SWE-bench's `repo`): owner and name as GitHub allows them. */
const REPO_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

export function parseRepoName(document: ManifestDocument, field: Field, example: string): string {
  const repo = document.string(field);
  if (!REPO_NAME.test(repo.value)) {
    document.fail(
      repo.line,
      repo.path,
      `must be owner/name as GitHub writes it, e.g. ${example} (got ${JSON.stringify(repo.value)})`,
    );
  }
  return repo.value;
}

export function parsePython(document: ManifestDocument, field: Field): string {
  const node = field.node;
  if (isScalar(node) && typeof node.value === 'number') {
    const raw = document.raw(node);
    const misread = String(node.value) === raw ? '' : `, which YAML reads as the number ${String(node.value)}`;
    document.fail(
      field.line,
      field.path,
      `must be a quoted version string like "3.11" (got ${raw}${misread}; write "${raw}")`,
    );
  }
  const version = document.string(field, 'a version string like "3.11"');
  if (!PYTHON_VERSION.test(version.value)) {
    document.fail(
      version.line,
      version.path,
      `must be a Python 3 version like "3.11" or "3.11.9" (got ${JSON.stringify(version.value)})`,
    );
  }
  return version.value;
}

/** The package root: a folder of the repository, as a path relative to its root. */
export function parsePackageRoot(document: ManifestDocument, field: Field): string {
  return parseRelativePath(document, field, 'the repository root');
}

export function parseTestRoots(document: ManifestDocument, field: Field): string[] {
  const roots = document.list(field);
  if (roots.length === 0)
    document.fail(field.line, field.path, 'must name at least one folder or file for pytest (e.g. [tests])');
  const seen = new Set<string>();
  return roots.map((item) => {
    const root = parseRelativePath(document, item, 'the package root');
    if (seen.has(root))
      document.fail(item.line, item.path, `repeats ${JSON.stringify(root)}; list each test root once`);
    seen.add(root);
    return root;
  });
}

export function parseStringList(document: ManifestDocument, field: Field): string[] {
  return document.stringList(field);
}

export function parseExcludeNewer(document: ManifestDocument, field: Field): string {
  const node = field.node;
  // YAML reads an unquoted 2024-09-01 as a string in the core schema, but a bare timestamp may come as a Date.
  const value =
    isScalar(node) && node.value instanceof Date
      ? node.value.toISOString()
      : document.string(field, 'a date such as "2024-09-01", or none').value;
  if (!isResolutionDateText(value)) {
    document.fail(
      field.line,
      field.path,
      `must be a date like "2024-09-01", a timestamp with its zone like "2024-09-01T12:00:00Z", or none (got ` +
        `${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function parseBuildInPlace(document: ManifestDocument, field: Field): string {
  const what = 'the shell command that builds the extensions in place, e.g. "python setup.py build_ext --inplace"';
  return document.string(field, what).value;
}

export function parseBlobsFrom(document: ManifestDocument, field: Field, example: string): string[] {
  return parseStringsMatching(document, field, {
    empty: `lists no distribution (e.g. ${example}); remove it or name one`,
    what: 'a pinned distribution such as "plotly==5.24.1"',
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!_-]+$/,
    mustBe: 'must pin one release, NAME==VERSION, e.g. "plotly==5.24.1"',
  });
}

export function parseImportCheck(document: ManifestDocument, field: Field, example: string): string[] {
  return parseStringsMatching(document, field, {
    empty: `names no package (e.g. ${example}); remove it or name one`,
    what: 'a top-level package name such as plotly',
    pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
    mustBe: 'must be a top-level package name such as plotly',
  });
}

export function parseTimeout(document: ManifestDocument, field: Field, example: string): number {
  return parseCount(document, field, `must be a whole number of seconds greater than 0, e.g. ${example}`);
}

/** A count of runs (baseline_runs, validate_runs). */
export function parseRuns(document: ManifestDocument, field: Field, example: string): number {
  return parseCount(document, field, `must be a whole number of runs, at least 1, e.g. ${example}`);
}

/** What mining's baseline reruns run (BASELINE_RERUNS). */
export function parseBaselineReruns(document: ManifestDocument, field: Field): BaselineReruns {
  const { value, line, path } = document.string(field, 'suite or relevant');
  if (!(BASELINE_RERUNS as readonly string[]).includes(value))
    document.fail(line, path, `must be one of ${BASELINE_RERUNS.join(', ')} (got ${JSON.stringify(value)})`);
  return value as BaselineReruns;
}

/** How a list of strings of one form is checked, and what its errors say. */
interface StringsRule {
  /** The error for an empty list. */
  readonly empty: string;
  /** What an item is, for an item that is not a string. */
  readonly what: string;
  readonly pattern: RegExp;
  /** The error for an item that does not match, before its value. */
  readonly mustBe: string;
}

/** A list that names at least one string, each matching the rule's pattern. */
function parseStringsMatching(document: ManifestDocument, field: Field, rule: StringsRule): string[] {
  const items = document.list(field);
  if (items.length === 0) document.fail(field.line, field.path, rule.empty);
  return items.map((item) => {
    const text = document.string(item, rule.what);
    if (!rule.pattern.test(text.value))
      document.fail(text.line, text.path, `${rule.mustBe} (got ${JSON.stringify(text.value)})`);
    return text.value;
  });
}

/** A whole number greater than 0; `mustBe` is the error before the value found. */
function parseCount(document: ManifestDocument, field: Field, mustBe: string): number {
  const node = field.node;
  const value = isScalar(node) ? node.value : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    document.fail(field.line, field.path, `${mustBe} (got ${document.describe(node)})`);
  }
  return value;
}

/** The project's context-level mode (LEVEL_MODES): every repository of the manifest is labelled with it. */
export function parseLevelMode(document: ManifestDocument, field: Field): LevelMode {
  const { value, line, path } = document.string(field, 'a level mode');
  if (!(LEVEL_MODES as readonly string[]).includes(value))
    document.fail(line, path, `must be one of ${LEVEL_MODES.join(', ')} (got ${JSON.stringify(value)})`);
  return value as LevelMode;
}

/** A relative path that stays inside its base folder: the runner joins it onto a working copy. */
export function parseRelativePath(document: ManifestDocument, field: Field, base: string): string {
  const path = document.string(field);
  const segments = path.value.split('/');
  if (
    path.value.startsWith('/') ||
    path.value.includes('\\') ||
    /^[A-Za-z]:/.test(path.value) ||
    segments.includes('..')
  ) {
    document.fail(
      path.line,
      path.path,
      `must be a path relative to ${base}, with "/" separators and no ".." (got ${JSON.stringify(path.value)})`,
    );
  }
  return path.value;
}
