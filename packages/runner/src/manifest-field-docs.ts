import type { GeneratedSection } from './generated-section.js';
import type { ManifestFieldRow, Presence, RulePresence, TopFieldRow } from './manifest-field-row.js';
import { MANIFEST_ENTRY_FIELDS, MANIFEST_TOP_FIELDS } from './manifest-fields.js';

/**
 * The field table (manifest-fields.ts) written out for people: a table in docs/runner.md and the list in the
 * header of datasets/repocod/manifest.yaml. `node scripts/manifest-fields.mjs` rewrites both; a test fails when
 * either differs from the table.
 */

type DocumentedRow = TopFieldRow | ManifestFieldRow;

const GENERATED_BY = 'generated from packages/runner/src/manifest-fields.ts by node scripts/manifest-fields.mjs';
/** The manifest's comment lines are wrapped to this many columns, as the rest of its header is. */
const COMMENT_WIDTH = 104;

/** What the entry holds when the field is left out, in words. */
export function presenceText(presence: Presence<unknown> | RulePresence): string {
  switch (presence.kind) {
    case 'required':
      return 'required';
    case 'default':
      return `default \`${presence.shown}\``;
    case 'optional':
      return presence.meaning === null ? 'optional' : `optional; left out: ${presence.meaning}`;
    case 'rule':
      return presence.rule;
  }
}

/** The markdown between the markers of docs/runner.md: the top-level fields, then a repository's. */
export function manifestFieldsMarkdown(): string[] {
  const table = (rows: readonly DocumentedRow[]): string[] =>
    markdownTable(
      ['field', 'required or default', 'what it holds', 'example'],
      rows.map((row) => [`\`${row.key}\``, presenceText(row.presence), row.about, `\`${row.key}: ${row.example}\``]),
    );
  return [
    `<!-- ${GENERATED_BY}: do not edit -->`,
    '',
    'At the top of a manifest:',
    '',
    ...table(MANIFEST_TOP_FIELDS),
    '',
    'Per repository (each item of `repositories`):',
    '',
    ...table(MANIFEST_ENTRY_FIELDS),
    '',
  ];
}

/** The comment lines between the markers of the manifest's header. */
export function manifestFieldsComment(): string[] {
  const rows: readonly DocumentedRow[] = [...MANIFEST_TOP_FIELDS, ...MANIFEST_ENTRY_FIELDS];
  const keyWidth = Math.max(...rows.map((row) => row.key.length)) + 1;
  const item = (row: DocumentedRow): string[] => {
    const presence = presenceText(row.presence);
    const text = `${row.about} ${presence.charAt(0).toUpperCase()}${presence.slice(1)}.`;
    return wrap(text, COMMENT_WIDTH - 4 - keyWidth).map((line, index) =>
      `#   ${(index === 0 ? row.key : '').padEnd(keyWidth)}${line}`.trimEnd(),
    );
  };
  return [
    `# The fields, ${GENERATED_BY}:`,
    '# At the top:',
    ...MANIFEST_TOP_FIELDS.flatMap(item),
    '# Per repository:',
    ...MANIFEST_ENTRY_FIELDS.flatMap(item),
  ];
}

/** Where the generated lists go. */
export const MANIFEST_FIELD_SECTIONS: readonly GeneratedSection[] = [
  {
    file: 'docs/runner.md',
    start: '<!-- manifest-fields:start -->',
    end: '<!-- manifest-fields:end -->',
    lines: manifestFieldsMarkdown,
  },
  {
    file: 'datasets/repocod/manifest.yaml',
    start: '# manifest-fields:start',
    end: '# manifest-fields:end',
    lines: manifestFieldsComment,
  },
];

/** A markdown table with its columns padded to their widest cell, as the formatter (biome) writes tables. */
function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const escaped = [header, ...rows].map((cells) => cells.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = header.map((_, column) => Math.max(...escaped.map((cells) => cells[column]?.length ?? 0)));
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`;
  const [head = [], ...body] = escaped;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)];
}

/** The words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}
