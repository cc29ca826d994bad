import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHarnessShape, HARNESS_ENV, HARNESS_PROTOCOL, missingHarnessFields } from './harness-protocol.js';

const SOURCE_DIR = fileURLToPath(new URL('.', import.meta.url));

describe('the harness protocol', () => {
  it('is the only place the runner names the environment variables of its plugins', () => {
    const named = new Set(Object.values(HARNESS_ENV));
    for (const file of readdirSync(SOURCE_DIR).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const text = readFileSync(join(SOURCE_DIR, file), 'utf8');
      // Code sets them through HARNESS_ENV; a comment may name one, and it must be the protocol's.
      expect(text.match(/env\.REPOCOD_|\['REPOCOD_/g), file).toBeNull();
      for (const name of text.match(/REPOCOD_[A-Z_]+/g) ?? []) {
        if (name.startsWith('REPOCOD_TEST') || ['REPOCOD_STATE'].includes(name)) continue;
        expect(named.has(name), `${file}: ${name}`).toBe(true);
      }
    }
  });

  it('names the fields a value lacks, and where it comes from', () => {
    expect(missingHarnessFields('coverageEntry', { id: 'f', tests: [], importTime: false })).toEqual([
      'subprocessTests',
    ]);
    expect(missingHarnessFields('coverageShard', null)).toEqual(HARNESS_PROTOCOL.shapes.coverageShard);
    expect(() => checkHarnessShape('mutationPlan', { targets: [] }, 'plan.json')).toThrow(
      /plan\.json: a mutationPlan without packageRoot \(the harness protocol, .*repocod_protocol\.json\)/,
    );
    expect(() => checkHarnessShape('mutationPlan', { packageRoot: '.', targets: [] }, 'plan.json')).not.toThrow();
  });
});
