import { describe, expect, it } from 'vitest';
import { AtError } from './at-error.js';
import { parseAtSpec } from './at-spec.js';

function refusal(spec: string): AtError {
  try {
    parseAtSpec(spec, `--at flask=${spec}`);
  } catch (error) {
    if (error instanceof AtError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(spec)} to be refused`);
}

describe('parseAtSpec', () => {
  it('reads a day as 00:00 UTC of it, HEAD as the tip, and the rest as a revision for git', () => {
    expect(parseAtSpec('2024-03-01')).toEqual({ kind: 'day', day: '2024-03-01', startsAt: Date.UTC(2024, 2, 1) });
    expect(parseAtSpec('HEAD')).toEqual({ kind: 'head' });
    for (const revision of ['2fec0b2', 'v1.0', '2.0.x', 'release/3.1', 'main~2', 'v1.0^', 'HEAD~1', '2024-03']) {
      expect(parseAtSpec(revision)).toEqual({ kind: 'revision', revision });
    }
  });

  it('refuses what git would read as an option, a range, a reflog entry or a path, and a day that is none', () => {
    for (const spec of ['', '-rf', '--all', 'a..b', 'HEAD@{1}', 'main:setup.py', 'a b', 'x.lock', '2024-02-30']) {
      const error = refusal(spec);
      expect(error.code).toBe('ref-malformed');
      expect(error.spec).toBe(spec);
      expect(error.message.startsWith(`--at flask=${spec}: `)).toBe(true);
    }
    expect(refusal('2024-13-01').message).toBe(
      '--at flask=2024-13-01: 2024-13-01 is not a day of the calendar; give a date as YYYY-MM-DD, e.g. 2024-03-01',
    );
  });
});
