import { isMap, isScalar, type Node } from 'yaml';
import type { Field, ManifestDocument } from './manifest-document.js';
import type { ManifestFieldRow } from './manifest-field-row.js';
import { type RecipeVariant, VARIANT_FIELD_KEYS, type VariantFields, type VariantStart } from './recipe-variant.js';
import { parseUtcDate, utcTimestamp } from './utc-date.js';

/**
 * The check of an entry's `variants` (see recipe-variant.ts for what they mean): a list of mappings, each with
 * `from`, `why` and at least one of the fields a variant may set, checked by the same rows as the entry's own.
 * Starts that are moments must rise down the list; a commit may start one variant only.
 */

const SHA = /^[0-9a-fA-F]{40}$/;
const VARIANT_KEYS: readonly string[] = ['from', 'why', ...VARIANT_FIELD_KEYS];

/**
 * `rows` are the entry's field rows (manifest-fields.ts), `entryKeys` every key an entry knows: a known entry field
 * that a variant may not set gets its own error rather than "not a known field".
 */
export function parseVariants(
  document: ManifestDocument,
  field: Field,
  rows: readonly ManifestFieldRow[],
  entryKeys: readonly string[],
): RecipeVariant[] {
  const items = document.list(field);
  if (items.length === 0) document.fail(field.line, field.path, 'lists no variant; remove it or add one');
  const variants: RecipeVariant[] = [];
  const lines: number[] = [];
  for (const item of items) {
    const fromLine = document.lineOf(document.child(item, 'from'), item.line);
    const variant = parseVariant(document, item, rows, entryKeys);
    for (const [index, earlier] of variants.entries()) {
      checkOrder(document, item, fromLine, variant, earlier, index, lines[index]);
    }
    variants.push(variant);
    lines.push(fromLine);
  }
  return variants;
}

function parseVariant(
  document: ManifestDocument,
  item: Field,
  rows: readonly ManifestFieldRow[],
  entryKeys: readonly string[],
): RecipeVariant {
  if (item.node === null || !isMap(item.node)) {
    document.fail(
      item.line,
      item.path,
      `must be a mapping {from: <day, timestamp or commit>, why: <reason>, <fields it sets>} (got ` +
        `${document.describe(item.node)})`,
    );
  }
  for (const pair of item.node.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? keyNode.value : undefined;
    if (typeof key === 'string' && entryKeys.includes(key) && !VARIANT_KEYS.includes(key)) {
      document.fail(
        document.lineOf(keyNode, item.line),
        `${item.path}.${key}`,
        `cannot be set by a variant (a variant sets ${VARIANT_FIELD_KEYS.join(', ')}; where the code comes from, ` +
          `how its functions are chosen and the names it is known by stay the entry's)`,
      );
    }
  }
  const fields = document.fieldsOf(item.node, item.path, VARIANT_KEYS, item.line);
  const from = parseStart(document, document.required(fields, 'from', item.path, item.line, startHint()));
  const why = document.string(
    document.required(
      fields,
      'why',
      item.path,
      item.line,
      'why the recipe changed there, e.g. why: the test extra became a group',
    ),
    'the reason the recipe changed',
  ).value;
  const set: Record<string, unknown> = {};
  for (const row of rows) {
    const value = fields.get(row.key);
    if (value === undefined || 'read' in row) continue;
    set[row.property] = row.parse(document, value, `${row.key}: ${row.example}`);
  }
  if (Object.keys(set).length === 0) {
    document.fail(item.line, item.path, `changes nothing; set at least one of ${VARIANT_FIELD_KEYS.join(', ')}`);
  }
  // The rows of VARIANT_FIELD_KEYS fill the properties of VariantFields with values of their types.
  return { from, why, fields: set as VariantFields, where: `${document.file}:${item.line}` };
}

function startHint(): string {
  return 'where it starts: a day "2025-05-12", a timestamp with its zone "2025-05-12T00:58:53Z", or a commit sha';
}

function parseStart(document: ManifestDocument, field: Field): VariantStart {
  const node = field.node;
  const text =
    isScalar(node) && node.value instanceof Date ? node.value.toISOString() : document.string(field, startHint()).value;
  if (SHA.test(text)) return { kind: 'commit', text, commit: text.toLowerCase() };
  const at = parseUtcDate(text);
  if (at === null) {
    document.fail(
      field.line,
      field.path,
      `must be a day like "2025-05-12", a timestamp with its zone like "2025-05-12T00:58:53Z", or a 40-character ` +
        `commit sha (got ${JSON.stringify(text)})`,
    );
  }
  return { kind: 'moment', text, at: utcTimestamp(at) };
}

/** A moment must come after every earlier moment; a commit may start one variant only. */
function checkOrder(
  document: ManifestDocument,
  item: Field,
  line: number,
  variant: RecipeVariant,
  earlier: RecipeVariant,
  index: number,
  earlierLine: number | undefined,
): void {
  const path = `${item.path}.from`;
  const where = `variants[${index}] (line ${earlierLine ?? item.line})`;
  if (variant.from.kind === 'commit' && earlier.from.kind === 'commit' && variant.from.commit === earlier.from.commit) {
    document.fail(line, path, `starts at ${variant.from.commit} as ${where} does; give each variant its own start`);
  }
  if (variant.from.kind === 'moment' && earlier.from.kind === 'moment' && variant.from.at <= earlier.from.at) {
    const same = variant.from.at === earlier.from.at;
    document.fail(
      line,
      path,
      `${variant.from.text} ${same ? 'starts at the same moment as' : 'is before'} ${where} from ` +
        `${earlier.from.text}; list variants oldest first, each starting later`,
    );
  }
}
