import { RepocodError } from '@repocod/core';
import { ENVIRONMENT_ERROR_CODE } from './environment-error.js';
import type { ProjectExtras } from './project-extras.js';
import { namesOrNone } from './project-extras.js';

/*
 * An install step that asks for an extra the project does not have succeeds: uv and pip only warn
 * ("does not have an extra named `test`"), install the project without it, and the tests then fail at their first
 * run for a missing module, far from the cause. The build reads what the installer said after each recipe step and
 * stops at such a warning about the project itself. A dependency's missing extra stays a warning: which extras a
 * package of that era had is its own affair, and the tests show whether it matters.
 */

/** An extra the installer said a package does not have, with the line that said it. */
export interface MissingExtra {
  /** The package as the installer named it (`attrs @ file:///…`, `attrs`). */
  readonly package: string;
  readonly extra: string;
  readonly line: string;
}

// uv: warning: The package `attrs @ file:///src/attrs` does not have an extra named `test`
const UV_MISSING_EXTRA = /^warning: The package `(.+?)` does not have an extra named `(.+?)`/;
// pip: WARNING: attrs 25.3.0 does not provide the extra 'test'
const PIP_MISSING_EXTRA = /^WARNING: (\S+) \S+ does not provide the extra '(.+?)'/;

/** The missing-extra warnings among an install command's output lines. */
export function missingExtras(lines: readonly string[]): MissingExtra[] {
  return lines.flatMap((line) => {
    const trimmed = line.trim();
    const match = UV_MISSING_EXTRA.exec(trimmed) ?? PIP_MISSING_EXTRA.exec(trimmed);
    return match === null ? [] : [{ package: match[1] as string, extra: match[2] as string, line: trimmed }];
  });
}

/**
 * Whether the installer's name for a package is the project at `checkoutPath` (uv names a local project
 * `name @ file:///path`) or has the project's distribution name.
 */
export function isTheProject(pkg: string, checkoutPath: string, projectName: string | null): boolean {
  const at = / @ file:\/\/(.+)$/.exec(pkg)?.[1];
  if (at !== undefined) return decodeURIComponent(at).replace(/\/$/, '').startsWith(checkoutPath.replace(/\/$/, ''));
  const normalise = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');
  return projectName !== null && normalise(pkg) === normalise(projectName);
}

/** A recipe step asked for an extra of the project that the project does not declare. */
export class RecipeExtraMissingError extends RepocodError {
  readonly repository: string;
  readonly command: string;
  readonly missing: readonly MissingExtra[];
  readonly declared: ProjectExtras;
  readonly logFile: string;

  constructor(
    repository: string,
    command: string,
    missing: readonly MissingExtra[],
    declared: ProjectExtras,
    logFile: string,
  ) {
    const extras = missing.map((item) => `"${item.extra}"`).join(', ');
    super(
      ENVIRONMENT_ERROR_CODE,
      [
        `environment of "${repository}": the recipe's step \`${command}\` asks for the extra ${extras}, which the`,
        `project does not have; the installer went on without it (${missing.map((item) => item.line).join('; ')}).`,
        `Its extras: ${namesOrNone(declared.extras)}; its dependency groups: ${namesOrNone(declared.groups)}.`,
        `Fix the step in the manifest (\`repocod manifest derive ${repository}\` proposes one). Log: ${logFile}`,
      ].join(' '),
    );
    this.name = 'RecipeExtraMissingError';
    this.repository = repository;
    this.command = command;
    this.missing = missing;
    this.declared = declared;
    this.logFile = logFile;
  }
}
