import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSection } from './generated-section.js';
import { parseManifest } from './manifest.js';
import { MANIFEST_FIELD_SECTIONS, manifestFieldsComment, manifestFieldsMarkdown } from './manifest-field-docs.js';
import { MANIFEST_ENTRY_FIELDS, MANIFEST_TOP_FIELDS } from './manifest-fields.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);

describe('the manifest fields for people', () => {
  it.each(MANIFEST_FIELD_SECTIONS.map((section) => [section.file, section] as const))(
    '%s lists them as the field table says',
    (file, section) => {
      const committed = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      expect(committed, `${file} is stale: pnpm -s build && node scripts/manifest-fields.mjs`).toBe(
        withSection(committed, section),
      );
    },
  );

  it('names every field once in each list, in the table order', () => {
    const keys = [...MANIFEST_TOP_FIELDS, ...MANIFEST_ENTRY_FIELDS].map((row) => row.key);
    const commentKeys = manifestFieldsComment().flatMap((line) => /^# {3}(\w+)/.exec(line)?.[1] ?? []);
    const markdownKeys = manifestFieldsMarkdown().flatMap((line) => /^\| `(\w+)` +\|/.exec(line)?.[1] ?? []);
    expect(commentKeys).toEqual(keys);
    expect(markdownKeys).toEqual(keys);
  });

  it('keeps the comment within the header of the manifest', () => {
    const long = manifestFieldsComment().filter((line) => line.length > 104);
    expect(long).toEqual([]);
  });

  it('shows a valid manifest as the example of repositories', () => {
    const [top] = MANIFEST_TOP_FIELDS.filter((row) => row.key === 'repositories');
    const manifest = parseManifest(`repositories: ${top?.example}\n`, 'example.yaml');
    expect(manifest.repositories.map((entry) => entry.name)).toEqual(['flask']);
  });
});
