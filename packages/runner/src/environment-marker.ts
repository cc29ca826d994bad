import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Written into the venv as the very last step of a successful build. Its absence is how a half-built
 * environment (a killed run, a failed install) is told from a finished one.
 */
export const ENVIRONMENT_MARKER_FILE = '.repocod-env.json';

export type Installer = 'uv' | 'pip';

/** What the marker records: enough to reuse the environment without running anything but a probe, and provenance. */
export interface EnvironmentMarker {
  readonly format: 'repocod-env-marker/1';
  readonly name: string;
  readonly key: string;
  readonly recipeHash: string;
  readonly baseCommit: string | null;
  readonly installer: Installer;
  /** The interpreter the venv was made from. */
  readonly interpreter: string;
  readonly pythonVersion: string;
  readonly seedPackages: readonly string[];
  readonly harnessPackages: readonly string[];
  /** `name==version` of every installed distribution, sorted. */
  readonly packages: readonly string[];
  readonly packagesHash: string;
  /** The UTC timestamp versions were resolved as of; null (or absent, in markers before it) when undated. */
  readonly resolvedAsOf?: string | null;
  readonly builtAt: string;
  readonly buildSeconds: number;
}

/** The marker of the venv at `envPath`, or null when it is absent or not one this code wrote. */
export function readEnvironmentMarker(envPath: string): EnvironmentMarker | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(envPath, ENVIRONMENT_MARKER_FILE), 'utf8'));
  } catch {
    return null;
  }
  return isEnvironmentMarker(parsed) ? parsed : null;
}

/** Written to a temporary name and renamed, so a kill mid-write leaves no marker rather than a torn one. */
export function writeEnvironmentMarker(envPath: string, marker: EnvironmentMarker): void {
  const file = join(envPath, ENVIRONMENT_MARKER_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(marker, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

function isEnvironmentMarker(value: unknown): value is EnvironmentMarker {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const strings = ['name', 'key', 'recipeHash', 'interpreter', 'pythonVersion', 'packagesHash', 'builtAt'];
  const lists = ['seedPackages', 'harnessPackages', 'packages'];
  return (
    record.format === 'repocod-env-marker/1' &&
    strings.every((field) => typeof record[field] === 'string') &&
    lists.every(
      (field) => Array.isArray(record[field]) && (record[field] as unknown[]).every((item) => typeof item === 'string'),
    ) &&
    (record.baseCommit === null || typeof record.baseCommit === 'string') &&
    (record.resolvedAsOf === undefined || record.resolvedAsOf === null || typeof record.resolvedAsOf === 'string') &&
    (record.installer === 'uv' || record.installer === 'pip') &&
    typeof record.buildSeconds === 'number'
  );
}
