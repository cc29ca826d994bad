import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysedFunction } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { recordMiningOutcomes } from './record-mining-outcomes.js';

const candidates = ['a', 'b', 'c'].map((qualname) => ({ file: 'pkg/m.py', qualname }) as AnalysedFunction);

function folderWith(mined: { with_tests: number; without_tests: number }, lines: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'repocod-record-outcomes-'));
  writeFileSync(join(folder, 'r.meta.json'), JSON.stringify({ candidates: 3, mined: { ...mined, errors: 0 } }));
  writeFileSync(join(folder, 'r.jsonl'), lines);
  return folder;
}

describe('recordMiningOutcomes', () => {
  it('answers for every candidate when the record mined them all, for its tasks only otherwise', () => {
    const task = `${JSON.stringify({ file: 'pkg/m.py', qualname: 'a' })}\n`;
    const whole = recordMiningOutcomes(folderWith({ with_tests: 1, without_tests: 2 }, task), 'r', candidates);
    expect(whole && [...whole]).toEqual([
      ['pkg/m.py::a', true],
      ['pkg/m.py::b', false],
      ['pkg/m.py::c', false],
    ]);
    const part = recordMiningOutcomes(folderWith({ with_tests: 1, without_tests: 0 }, task), 'r', candidates);
    expect(part && [...part]).toEqual([['pkg/m.py::a', true]]);
    expect(recordMiningOutcomes(join(tmpdir(), 'no-such-records'), 'r', candidates)).toBeNull();
  });

  it('names the line of a task without its file and qualname', () => {
    const folder = folderWith({ with_tests: 1, without_tests: 2 }, '{"file":"pkg/m.py"}\n');
    expect(() => recordMiningOutcomes(folder, 'r', candidates)).toThrow(
      /r\.jsonl:1: a task without "file" and "qualname"/,
    );
    const broken = folderWith({ with_tests: 1, without_tests: 2 }, '{"file":\n');
    expect(() => recordMiningOutcomes(broken, 'r', candidates)).toThrow(/r\.jsonl:1: not JSON/);
  });
});
