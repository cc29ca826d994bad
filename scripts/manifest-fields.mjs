#!/usr/bin/env node
// Writes the manifest's fields, from the runner's field table (packages/runner/src/manifest-fields.ts), into
// docs/runner.md and the header of datasets/repocod/manifest.yaml, between their manifest-fields markers;
// the rest of each file is left as it is. Build the runner first (pnpm -s build). A test in the runner fails
// while either file differs from the table. Usage: node scripts/manifest-fields.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSection } from '../packages/runner/dist/generated-section.js';
import { MANIFEST_FIELD_SECTIONS } from '../packages/runner/dist/manifest-field-docs.js';

const ROOT = new URL('..', import.meta.url).pathname;

for (const section of MANIFEST_FIELD_SECTIONS) {
  const file = join(ROOT, section.file);
  const text = readFileSync(file, 'utf8');
  const written = withSection(text, section);
  if (written !== text) writeFileSync(file, written);
  console.log(`${section.file}: ${written === text ? 'up to date' : 'rewritten'}`);
}
