import { RepocodError } from '@repocod/core';
import type { InstallStep } from '@repocod/runner';

/**
 * Reads a message that came over the wire (a job for a worker, a result for the coordinator) field by
 * field: the first field that is missing or of the wrong type stops the reading with an error that
 * names the field's path, what it wanted and what it found.
 */
export class WireFields {
  constructor(
    private readonly what: string,
    private readonly value: unknown,
    private readonly path = '',
  ) {}

  private fail(field: string, wanted: string, found: unknown): never {
    const shown = found === undefined ? 'nothing' : (JSON.stringify(found)?.slice(0, 60) ?? String(found));
    const subject = `${this.path}${field}`.replace(/\.$/, '');
    throw new RepocodError(
      'job-malformed',
      subject === ''
        ? `${this.what} must be ${wanted}, found ${shown}`
        : `${this.what}: field ${subject} must be ${wanted}, found ${shown}`,
    );
  }

  private raw(field: string): unknown {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value))
      this.fail('', 'an object', this.value);
    return (this.value as Record<string, unknown>)[field];
  }

  object(field: string): WireFields {
    const value = this.raw(field);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'an object', value);
    return new WireFields(this.what, value, `${this.path}${field}.`);
  }

  string(field: string): string {
    const value = this.raw(field);
    if (typeof value !== 'string') this.fail(field, 'a string', value);
    return value;
  }

  stringOrNull(field: string): string | null {
    const value = this.raw(field);
    if (value !== null && typeof value !== 'string') this.fail(field, 'a string or null', value);
    return value;
  }

  optionalString(field: string): string | undefined {
    const value = this.raw(field);
    return value === undefined ? undefined : this.string(field);
  }

  /** Absent, a string or null (a manifest entry's manifestCommit: null is a folder's current state). */
  optionalStringOrNull(field: string): string | null | undefined {
    return this.raw(field) === undefined ? undefined : this.stringOrNull(field);
  }

  number(field: string): number {
    const value = this.raw(field);
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(field, 'a number', value);
    return value;
  }

  numberOrNull(field: string): number | null {
    const value = this.raw(field);
    return value === null ? null : this.number(field);
  }

  optionalNumber(field: string): number | undefined {
    const value = this.raw(field);
    return value === undefined ? undefined : this.number(field);
  }

  strings(field: string): string[] {
    const value = this.raw(field);
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
      this.fail(field, 'a list of strings', value);
    return value as string[];
  }

  /** A recipe's install steps: shell commands (strings) and resolved installs ({pip: [strings]}). */
  installSteps(field: string): InstallStep[] {
    const value = this.raw(field);
    const isStep = (item: unknown): boolean =>
      typeof item === 'string' ||
      (typeof item === 'object' &&
        item !== null &&
        Object.keys(item).length === 1 &&
        Array.isArray((item as { pip?: unknown }).pip) &&
        (item as { pip: unknown[] }).pip.every((argument) => typeof argument === 'string'));
    if (!Array.isArray(value) || !value.every(isStep))
      this.fail(field, 'a list of shell commands and {pip: [strings]} steps', value);
    return value as InstallStep[];
  }

  /** Whether the field is there at all (an optional list of objects). */
  has(field: string): boolean {
    return this.raw(field) !== undefined;
  }

  optionalStrings(field: string): string[] | undefined {
    return this.raw(field) === undefined ? undefined : this.strings(field);
  }

  /** A list of node ids, or the word `all` (the whole suite). */
  testsOrAll(field: string): string[] | 'all' {
    return this.raw(field) === 'all' ? 'all' : this.strings(field);
  }

  optionalListOf<T extends string>(field: string, allowed: readonly T[]): T[] | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((item) => !(allowed as readonly unknown[]).includes(item)))
      this.fail(field, `a list of ${allowed.join(', ')}`, value);
    return value as T[];
  }

  /** The field must hold exactly `expected`; `why` tells the user what a different value means. */
  exactly(field: string, expected: string, why: string): void {
    const value = this.raw(field);
    if (value !== expected) this.fail(field, `${JSON.stringify(expected)} (${why})`, value);
  }

  stringMap(field: string): Record<string, string> {
    const value = this.raw(field);
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      Object.values(value).some((item) => typeof item !== 'string')
    )
      this.fail(field, 'a map of strings', value);
    return value as Record<string, string>;
  }

  list(field: string): WireFields[] {
    const value = this.raw(field);
    if (!Array.isArray(value)) this.fail(field, 'a list', value);
    return value.map((item, index) => new WireFields(this.what, item, `${this.path}${field}[${index}].`));
  }

  oneOf<T extends string>(field: string, allowed: readonly T[]): T {
    const value = this.raw(field);
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
      this.fail(field, `one of ${allowed.join(', ')}`, value);
    return value as T;
  }
}
