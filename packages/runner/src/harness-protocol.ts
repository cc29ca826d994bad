import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RepocodError } from '@repocod/core';

/**
 * The protocol between the runner and its pytest plugins, defined once in harness/repocod_protocol.json
 * and loaded by both sides (the plugins through harness/repocod_protocol.py): the environment variables
 * a run gets, and the fields of the JSON the runner writes for the plugins (plans) and reads back from
 * them (artifacts). Each side checks what it sends and what it receives against the file.
 */

export const HARNESS_PROTOCOL_FILE = fileURLToPath(new URL('../harness/repocod_protocol.json', import.meta.url));

export type HarnessVariable =
  | 'selectFile'
  | 'pluginInput'
  | 'artifactFile'
  | 'coverageDir'
  | 'coverageInclude'
  | 'coverageContext'
  | 'coverageMainPid';

export type HarnessShape =
  | 'mutationPlan'
  | 'mutationTarget'
  | 'mutationRecord'
  | 'coveragePlan'
  | 'coverageTarget'
  | 'coverageEntry'
  | 'coverageShard';

export interface HarnessProtocol {
  readonly environment: Readonly<Record<HarnessVariable, string>>;
  readonly shapes: Readonly<Record<HarnessShape, readonly string[]>>;
}

export const HARNESS_PROTOCOL: HarnessProtocol = loadProtocol();

/** The environment variables' names, by role: `env[HARNESS_ENV.artifactFile] = …`. */
export const HARNESS_ENV = HARNESS_PROTOCOL.environment;

/** The fields of `shape` that `value` lacks (none: it keeps the protocol). */
export function missingHarnessFields(shape: HarnessShape, value: unknown): string[] {
  const fields = HARNESS_PROTOCOL.shapes[shape];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [...fields];
  return fields.filter((field) => !(field in value));
}

/** Throws when `value` lacks a field of `shape`, naming the fields and where the value comes from. */
export function checkHarnessShape(shape: HarnessShape, value: unknown, where: string): void {
  const missing = missingHarnessFields(shape, value);
  if (missing.length > 0) {
    throw new RepocodError(
      'job-malformed',
      `${where}: a ${shape} without ${missing.join(', ')} (the harness protocol, ${HARNESS_PROTOCOL_FILE})`,
    );
  }
}

function loadProtocol(): HarnessProtocol {
  const parsed: unknown = JSON.parse(readFileSync(HARNESS_PROTOCOL_FILE, 'utf8'));
  const protocol = parsed as Partial<HarnessProtocol>;
  const variables: HarnessVariable[] = [
    'selectFile',
    'pluginInput',
    'artifactFile',
    'coverageDir',
    'coverageInclude',
    'coverageContext',
    'coverageMainPid',
  ];
  const shapes: HarnessShape[] = [
    'mutationPlan',
    'mutationTarget',
    'mutationRecord',
    'coveragePlan',
    'coverageTarget',
    'coverageEntry',
    'coverageShard',
  ];
  const lacking = [
    ...variables
      .filter((name) => typeof protocol.environment?.[name] !== 'string')
      .map((name) => `environment.${name}`),
    ...shapes.filter((name) => !Array.isArray(protocol.shapes?.[name])).map((name) => `shapes.${name}`),
  ];
  if (lacking.length > 0) {
    throw new RepocodError('config-invalid', `${HARNESS_PROTOCOL_FILE}: lacks ${lacking.join(', ')}`);
  }
  return protocol as HarnessProtocol;
}
