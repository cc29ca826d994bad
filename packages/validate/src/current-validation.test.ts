import { describe, expect, it } from 'vitest';
import { currentValidations } from './current-validation.js';

const at = (iso: string) => new Date(iso);

describe('currentValidations', () => {
  it("takes each task's newest validation of its current hash, whatever the order of the rows", () => {
    const rows = [
      { instanceId: 'a', taskHash: 'h1', validatedAt: at('2026-01-01T00:00:00Z'), validationKey: 'k1', verdict: 'old' },
      { instanceId: 'a', taskHash: 'h1', validatedAt: at('2026-03-01T00:00:00Z'), validationKey: 'k2', verdict: 'new' },
      // Newer, but of an earlier build of the task: says nothing of it as it is now.
      { instanceId: 'a', taskHash: 'h0', validatedAt: at('2026-05-01T00:00:00Z'), validationKey: 'k3', verdict: 'h0' },
      { instanceId: 'b', taskHash: 'h9', validatedAt: at('2026-05-01T00:00:00Z'), validationKey: 'k1', verdict: 'b' },
      { instanceId: 'c', taskHash: 'hc', validatedAt: at('2026-05-01T00:00:00Z'), validationKey: 'k1', verdict: 'c' },
    ];
    const hashes = new Map([
      ['a', 'h1'],
      ['b', 'h2'],
    ]);
    for (const order of [rows, [...rows].reverse()]) {
      const current = currentValidations(order, hashes);
      expect([...current].map(([id, row]) => [id, row.verdict])).toEqual([['a', 'new']]);
    }
  });

  it('breaks a tie of times by validation key, as the store does, and keeps the order of rows without time', () => {
    const same = at('2026-02-02T00:00:00Z');
    const tied = [
      { instanceId: 'a', taskHash: 'h', validatedAt: same, validationKey: 'k2' },
      { instanceId: 'a', taskHash: 'h', validatedAt: same, validationKey: 'k1' },
    ];
    expect(currentValidations(tied, new Map([['a', 'h']])).get('a')?.validationKey).toBe('k1');
    expect(currentValidations([...tied].reverse(), new Map([['a', 'h']])).get('a')?.validationKey).toBe('k1');
    const verdictsOnly = [
      { instanceId: 'a', taskHash: 'h', status: 'failed' },
      { instanceId: 'a', taskHash: 'h', status: 'passed' },
    ];
    expect(currentValidations(verdictsOnly, new Map([['a', 'h']])).get('a')?.status).toBe('failed');
  });
});
