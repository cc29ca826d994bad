import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTomlSubset } from './pyproject-subset.js';

/** What a project declares a recipe can ask for by name: its extras and its dependency groups. */
export interface ProjectExtras {
  /** `[project.optional-dependencies]` of pyproject.toml and `[options.extras_require]` of setup.cfg. */
  readonly extras: readonly string[];
  /** `[dependency-groups]` of pyproject.toml. */
  readonly groups: readonly string[];
}

/**
 * The extras and groups of the project at `projectDir`, as its files declare them (setup.py's extras_require is
 * code and is not read: a project that declares extras there only has `extras` empty, never wrong).
 */
export function projectExtras(projectDir: string): ProjectExtras {
  const pyprojectFile = join(projectDir, 'pyproject.toml');
  const pyproject = existsSync(pyprojectFile) ? readTomlSubset(readFileSync(pyprojectFile, 'utf8')) : new Map();
  const setupCfgFile = join(projectDir, 'setup.cfg');
  const setupCfg = existsSync(setupCfgFile) ? readFileSync(setupCfgFile, 'utf8') : '';
  const section = /^\[options\.extras_require\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(setupCfg)?.[1] ?? '';
  const cfgExtras = [...section.matchAll(/^([A-Za-z0-9._-]+)\s*=/gm)].map((match) => match[1] as string);
  const extras = [...(pyproject.get('project.optional-dependencies')?.keys() ?? []), ...cfgExtras];
  return { extras: [...new Set(extras)], groups: [...(pyproject.get('dependency-groups')?.keys() ?? [])] };
}

/** The distribution name pyproject.toml's `[project]` gives, or null. */
export function projectNameOf(projectDir: string): string | null {
  const file = join(projectDir, 'pyproject.toml');
  if (!existsSync(file)) return null;
  const name = readTomlSubset(readFileSync(file, 'utf8')).get('project')?.get('name');
  return typeof name === 'string' ? name : null;
}

/** `tests, docs` or `none declared` for a message. */
export function namesOrNone(names: readonly string[]): string {
  return names.length === 0 ? 'none declared' : names.join(', ');
}
