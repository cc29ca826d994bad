import { isMap } from 'yaml';
import type { ManifestEntry } from './manifest.js';
import type { Field, ManifestDocument } from './manifest-document.js';
import type { EntryFields, ManifestFieldRow } from './manifest-field-row.js';
import { MANIFEST_ENTRY_FIELDS, MANIFEST_ENTRY_KEYS } from './manifest-fields.js';

/**
 * One repository of the manifest, read row by row from the field table (manifest-fields.ts): a required
 * field that is missing, an unknown key or a wrong value stops at the first problem, with its line.
 */
export function checkEntry(document: ManifestDocument, field: Field): ManifestEntry {
  if (field.node === null || !isMap(field.node)) {
    document.fail(
      field.line,
      field.path,
      `must be a mapping of fields (name, url, base_commit, ...) (got ${document.describe(field.node)})`,
    );
  }
  const fields = document.fieldsOf(field.node, field.path, MANIFEST_ENTRY_KEYS, field.line);
  const context: EntryFields = { document, entry: field, fields };
  const rows: readonly ManifestFieldRow[] = MANIFEST_ENTRY_FIELDS;
  const entry: Record<string, unknown> = {};
  for (const row of rows) {
    const value = fieldValue(row, context);
    if (value !== undefined) entry[row.property] = value;
  }
  // The table's rows are the entry's properties with values of their types (checked in manifest-fields.ts).
  return entry as unknown as ManifestEntry;
}

/** The row's value in this entry; undefined for an optional field that is left out. */
function fieldValue(row: ManifestFieldRow, context: EntryFields): unknown {
  if ('read' in row) return row.read(context);
  const { document, entry, fields } = context;
  const example = `${row.key}: ${row.example}`;
  const presence = row.presence;
  const field =
    presence.kind === 'required'
      ? document.required(fields, row.key, entry.path, entry.line, `${presence.hint}, e.g. ${example}`)
      : fields.get(row.key);
  if (field !== undefined) return row.parse(document, field, example);
  return presence.kind === 'default' ? presence.value() : undefined;
}
