import { RepocodError } from '@repocod/core';
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type YAMLMap } from 'yaml';
import { closestName } from './manifest-suggest.js';

/** Where the document came from: error messages quote the file, the line and the original text. */
export interface ManifestSource {
  readonly file: string;
  readonly text: string;
  readonly lineCounter: LineCounter;
}

/** A value in the document and where to point when it is wrong. */
export interface Field {
  readonly path: string;
  /** The value, aliases followed; null when the key is present with nothing after it. */
  readonly node: Node | null;
  readonly line: number;
}

/** A string value with the place it came from, for checks that follow. */
export interface StringValue {
  readonly value: string;
  readonly line: number;
  readonly path: string;
}

/**
 * The parsed manifest read one value at a time: strings, lists and mappings of known fields, each checked
 * as it is read. The first problem is thrown as a config-invalid RepocodError naming the file, the line
 * and the field's path.
 */
export class ManifestDocument {
  constructor(
    private readonly doc: Document,
    private readonly source: ManifestSource,
  ) {}

  /** The document's top value, the root of every path. */
  root(): Node | null {
    return this.resolve(this.doc.contents as Node | null, 'the manifest', 1);
  }

  get file(): string {
    return this.source.file;
  }

  stringList(field: Field): string[] {
    return this.list(field).map((item) => this.string(item).value);
  }

  list(field: Field): Field[] {
    if (field.node === null || !isSeq(field.node)) {
      this.fail(
        field.line,
        field.path,
        `must be a list, e.g. [a, b] or one "- item" per line (got ${this.describe(field.node)})`,
      );
    }
    return field.node.items.map((item, index) => this.item(item as Node | null, `${field.path}[${index}]`, field.line));
  }

  string(field: Field, what = 'a string', allowEmpty = false): StringValue {
    const node = field.node;
    if (node === null || (isScalar(node) && node.value === null)) {
      this.fail(field.line, field.path, `must not be empty (give ${what}, or remove the field where it is optional)`);
    }
    if (!isScalar(node)) this.fail(field.line, field.path, `must be ${what} (got ${this.describe(node)})`);
    if (typeof node.value !== 'string') {
      this.fail(field.line, field.path, `must be ${what} (got ${this.describe(node)}; quote it to make it a string)`);
    }
    if (!allowEmpty && node.value.trim() === '') this.fail(field.line, field.path, `must not be empty (give ${what})`);
    return { value: node.value, line: field.line, path: field.path };
  }

  required(
    fields: ReadonlyMap<string, Field>,
    key: string,
    parentPath: string,
    parentLine: number,
    hint: string,
  ): Field {
    const field = fields.get(key);
    if (field === undefined) this.fail(parentLine, joinPath(parentPath, key), `is required (${hint})`);
    return field;
  }

  /** The fields of a mapping by key; a key that is not a known field stops here, with a suggestion. */
  fieldsOf(map: YAMLMap, path: string, known: readonly string[], line: number): Map<string, Field> {
    const fields = new Map<string, Field>();
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      const keyLine = this.lineOf(keyNode, line);
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string') {
        this.fail(
          keyLine,
          path === '' ? 'the manifest' : path,
          `has ${this.describe(keyNode)} as a field name (field names are words like ${known[0] ?? 'name'})`,
        );
      }
      if (!known.includes(key)) {
        const closest = closestName(key, known);
        const suggestion = closest === null ? '' : `did you mean "${closest}"? `;
        this.fail(
          keyLine,
          joinPath(path, key),
          `is not a known field (${suggestion}known fields: ${known.join(', ')})`,
        );
      }
      fields.set(key, this.valueField(pair.value as Node | null, joinPath(path, key), keyLine));
    }
    return fields;
  }

  /** The key node of `key` in a mapping, for the line it is on. */
  child(field: Field, key: string): Node | null {
    if (field.node === null || !isMap(field.node)) return null;
    const pair = field.node.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === key);
    return (pair?.key as Node | undefined) ?? null;
  }

  valueField(value: Node | null, path: string, keyLine: number): Field {
    const node = this.resolve(value, path, keyLine);
    return { path, node, line: this.lineOf(value, keyLine) };
  }

  item(value: Node | null, path: string, fallbackLine: number): Field {
    return { path, node: this.resolve(value, path, fallbackLine), line: this.lineOf(value, fallbackLine) };
  }

  /** Follows `*anchor` references, so shared blocks may be written once and reused. */
  private resolve(node: Node | null, path: string, line: number): Node | null {
    if (!isAlias(node)) return node;
    const target = node.resolve(this.doc);
    if (target === undefined)
      this.fail(this.lineOf(node, line), path, `refers to an anchor that is not defined (*${node.source})`);
    return target;
  }

  lineOf(node: Node | null | undefined, fallback: number): number {
    const start = node?.range?.[0];
    return start === undefined ? fallback : this.source.lineCounter.linePos(start).line;
  }

  /** The value as the user wrote it: `3.10` stays `3.10` even though YAML read it as 3.1. */
  raw(node: Node): string {
    const range = node.range;
    return range === undefined || range === null
      ? String(isScalar(node) ? node.value : '')
      : this.source.text.slice(range[0], range[1]).trim();
  }

  describe(node: Node | null | undefined): string {
    if (node === null || node === undefined) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      if (node.value === null) return 'nothing';
      if (typeof node.value === 'string') return JSON.stringify(node.value);
      if (typeof node.value === 'number') return `the number ${this.raw(node)}`;
      if (typeof node.value === 'boolean') return `the boolean ${String(node.value)}`;
      return this.raw(node);
    }
    return this.raw(node);
  }

  fail(line: number, path: string, reason: string): never {
    throw new RepocodError('config-invalid', `${this.source.file}:${line}: ${path} ${reason}`);
  }
}

export function joinPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}
