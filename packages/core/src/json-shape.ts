import { RepocodError } from './errors.js';

/*
 * Reading JSON that the catalog stored (text columns): each value is checked against the shape the
 * code expects, so that a row written by another version, or edited by hand, fails with the column
 * and the field named instead of surfacing later as `undefined`.
 */

/** Parses `text` (from `where`, e.g. "tasks.checks of demo-x") and returns the value, or throws naming it. */
export function parseStoredJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RepocodError('catalog-error', `${where}: not JSON (${(error as Error).message}); rebuild the row`, {
      cause: error,
    });
  }
}

export function malformed(where: string, what: string): RepocodError {
  return new RepocodError('catalog-error', `${where}: ${what}; rebuild the row (run its stage again)`);
}

export function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformed(where, 'not an object');
  return value as Record<string, unknown>;
}

export function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw malformed(where, 'not a list');
  return value;
}

export function stringField(object: Record<string, unknown>, name: string, where: string): string {
  const value = object[name];
  if (typeof value !== 'string') throw malformed(where, `field "${name}" is not text`);
  return value;
}

export function numberField(object: Record<string, unknown>, name: string, where: string): number {
  const value = object[name];
  if (typeof value !== 'number') throw malformed(where, `field "${name}" is not a number`);
  return value;
}

export function booleanField(object: Record<string, unknown>, name: string, where: string): boolean {
  const value = object[name];
  if (typeof value !== 'boolean') throw malformed(where, `field "${name}" is not true or false`);
  return value;
}

export function stringListField(object: Record<string, unknown>, name: string, where: string): string[] {
  const value = asArray(object[name], `${where}, field "${name}"`);
  if (!value.every((item) => typeof item === 'string')) throw malformed(where, `field "${name}" holds a non-text item`);
  return value as string[];
}

export function oneOfField<T extends string>(
  object: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  where: string,
): T {
  const value = object[name];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw malformed(where, `field "${name}" is ${JSON.stringify(value)}, not one of ${allowed.join(', ')}`);
  }
  return value as T;
}
