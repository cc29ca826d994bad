import { describe, expect, it } from 'vitest';
import { parseMutationArtifact } from './mutation-artifact.js';

describe('parseMutationArtifact', () => {
  it('reads ok and unswappable records and drops a last line cut short by a killed process', () => {
    const text = [
      '{"id": "f", "status": "ok", "outcomes": {"t::a": "failed"}, "seconds": 0.5}',
      '{"id": "g", "status": "unswappable", "reason": "no code"}',
      '{"id": "h", "status": "o',
    ].join('\n');
    const records = parseMutationArtifact(text, 'a batch');
    expect(records).toEqual([
      { id: 'f', status: 'ok', outcomes: new Map([['t::a', 'failed']]), seconds: 0.5 },
      { id: 'g', status: 'unswappable', reason: 'no code' },
    ]);
  });

  it('refuses an unknown outcome, naming the line', () => {
    expect(() =>
      parseMutationArtifact('{"id": "f", "status": "ok", "outcomes": {"t::a": "exploded"}}\n', 'a batch'),
    ).toThrow(/a batch, line 1: expected/);
  });
});
