import type { LevelMode } from '@repocod/core';
import { isMap, isScalar, isSeq, type Document, type Node, type YAMLSeq } from 'yaml';
import type { Manifest, ManifestEntry } from './manifest.js';
import { ManifestDocument, type ManifestSource } from './manifest-document.js';
import { checkEntry } from './manifest-entry-checker.js';
import { LEVELS_FIELD, MANIFEST_TOP_FIELDS, REPOSITORIES_FIELD } from './manifest-fields.js';
import { parseLevelMode } from './manifest-values.js';

export type { ManifestSource } from './manifest-document.js';

const TOP_KEYS = MANIFEST_TOP_FIELDS.map((row) => row.key);

/** Checks a parsed manifest document field by field; the first problem is thrown with its line. */
export function validateManifest(doc: Document, source: ManifestSource): Manifest {
  // Typed, so that TypeScript takes document.fail(...) as the end of the path (it returns never).
  const document: ManifestDocument = new ManifestDocument(doc, source);
  const root = document.root();
  if (root === null || (isScalar(root) && root.value === null)) {
    document.fail(1, 'the manifest', 'is empty (expected a "repositories:" list of repositories)');
  }
  if (!isMap(root)) {
    document.fail(
      document.lineOf(root, 1),
      'the manifest',
      `must be a mapping with a "repositories:" list (got ${document.describe(root)})`,
    );
  }
  const fields = document.fieldsOf(root, '', TOP_KEYS, 1);
  const levelsField = fields.get(LEVELS_FIELD.key);
  const levels = levelsField === undefined ? undefined : parseLevelMode(document, levelsField);
  const { key, presence } = REPOSITORIES_FIELD;
  const list = document.required(fields, key, key, 1, presence.hint);
  if (list.node === null || !isSeq(list.node)) {
    document.fail(
      list.line,
      'repositories',
      `must be a list of repositories, one "- name: ..." item each (got ${document.describe(list.node)})`,
    );
  }
  if (list.node.items.length === 0) document.fail(list.line, 'repositories', 'lists no repository (add at least one)');

  return { file: source.file, repositories: checkRepositories(document, list.node, list.line, levels) };
}

/** Every repository of the list, each labelled with the manifest's levels; a name may be used once. */
function checkRepositories(
  document: ManifestDocument,
  list: YAMLSeq,
  listLine: number,
  levels: LevelMode | undefined,
): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  const firstUse = new Map<string, { index: number; line: number }>();
  list.items.forEach((item, index) => {
    const field = document.item(item as Node | null, `repositories[${index}]`, listLine);
    const entry = { ...checkEntry(document, field), ...(levels === undefined ? {} : { levels }) };
    // A name is checked before the next entry is read: the first problem in the file is the one reported.
    const nameLine = document.lineOf(document.child(field, 'name'), field.line);
    const earlier = firstUse.get(entry.name);
    if (earlier !== undefined) {
      document.fail(
        nameLine,
        `repositories[${index}].name`,
        `"${entry.name}" is already used by repositories[${earlier.index}] (line ${earlier.line}); names must be ` +
          `unique`,
      );
    }
    firstUse.set(entry.name, { index, line: nameLine });
    entries.push(entry);
  });
  return entries;
}
