import type { Field, ManifestDocument } from './manifest-document.js';

/**
 * The shape of a row of the manifest's field table (manifest-fields.ts): the key, what the entry holds when
 * the field is left out, the check, and the words and example people read.
 */

/** Checks one field's value; `example` is the row's example as a manifest writes it (`timeout: 600`). */
export type ValueParser<T> = (document: ManifestDocument, field: Field, example: string) => T;

/** What an entry holds when the field is left out. */
export type Presence<T> = RequiredPresence | DefaultPresence<T> | OptionalPresence;

/** Left out, the entry is refused: "is required (hint, e.g. key: example)". */
export interface RequiredPresence {
  readonly kind: 'required';
  readonly hint: string;
}

/** Left out, the entry holds `value()` (a fresh one per entry), shown to people as `shown`. */
export interface DefaultPresence<T> {
  readonly kind: 'default';
  readonly value: () => T;
  readonly shown: string;
}

/** Left out, the entry has no such property; `meaning` says what that means, for people (null: nothing to say). */
export interface OptionalPresence {
  readonly kind: 'optional';
  readonly meaning: string | null;
}

/** Fields checked together with others of their entry: when and how they are required, in words. */
export interface RulePresence {
  readonly kind: 'rule';
  readonly rule: string;
}

export interface FieldText {
  /** The key as a manifest writes it. */
  readonly key: string;
  /** What the field holds, for people: a sentence or two, shown in docs/runner.md and the manifest's header. */
  readonly about: string;
  /** A value as written after `key: `. */
  readonly example: string;
}

/** A field checked on its own. */
export interface ValueFieldRow<P extends string, T, S extends Presence<T>> extends FieldText {
  readonly property: P;
  readonly presence: S;
  readonly parse: ValueParser<T>;
}

/** An entry's fields by key, for the fields checked together (url, source and base_commit). */
export interface EntryFields {
  readonly document: ManifestDocument;
  /** The entry itself, for errors about a field that is missing. */
  readonly entry: Field;
  readonly fields: ReadonlyMap<string, Field>;
}

/** A field checked together with others of its entry; `read` takes its value from their common check. */
export interface RuleFieldRow<P extends string, T> extends FieldText {
  readonly property: P;
  readonly presence: RulePresence;
  readonly read: (entry: EntryFields) => T;
}

/** Any row, as the entry checker and the docs read them. */
export type ManifestFieldRow = ValueFieldRow<string, unknown, Presence<unknown>> | RuleFieldRow<string, unknown>;

/** A field of the manifest's top level; manifest-schema.ts checks them, the row is what people read. */
export interface TopFieldRow extends FieldText {
  readonly presence: RequiredPresence | OptionalPresence;
}

export function required(hint: string): RequiredPresence {
  return { kind: 'required', hint };
}

export function defaultsTo<T>(shown: string, value: () => T): DefaultPresence<T> {
  return { kind: 'default', value, shown };
}

export function optional(meaning: string | null = null): OptionalPresence {
  return { kind: 'optional', meaning };
}

/** A row checked on its own, its property name and value type kept for the checks of the table. */
export function field<P extends string, T, S extends Presence<T>>(row: ValueFieldRow<P, T, S>): ValueFieldRow<P, T, S> {
  return row;
}
