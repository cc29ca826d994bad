import { describe, expect, it } from 'vitest';
import { packBatches } from './batches.js';

const costOf = <T>(items: readonly { item: T; cost: number }[], batch: readonly T[]): number =>
  batch.reduce((sum, id) => sum + (items.find((entry) => entry.item === id)?.cost ?? 0), 0);

describe('packBatches', () => {
  it('gives every worker a batch and balances the cost when the whole fits in one batch per worker', () => {
    const items = [8, 1, 1, 1, 1, 4, 4].map((cost, index) => ({ item: `f${index}`, cost }));
    const batches = packBatches(items, { workers: 2, maxPerBatch: 10, capacity: 60 });
    expect(batches.flat().sort()).toEqual(items.map((entry) => entry.item).sort());
    expect(batches.map((batch) => costOf(items, batch))).toEqual([10, 10]);
    // Inside a batch the input order is kept.
    for (const batch of batches)
      expect([...batch].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(batch);
  });

  it('respects the batch size and never makes empty batches', () => {
    const items = Array.from({ length: 7 }, (_, index) => ({ item: index, cost: 1 }));
    const batches = packBatches(items, { workers: 2, maxPerBatch: 3, capacity: 60 });
    expect(batches.map((batch) => batch.length).sort()).toEqual([2, 2, 3]);
    expect(packBatches(items.slice(0, 1), { workers: 4, maxPerBatch: 3, capacity: 60 })).toEqual([[0]]);
    expect(packBatches([], { workers: 2, maxPerBatch: 3, capacity: 60 })).toEqual([]);
  });

  it('runs expensive items alone and fills batches of cheap ones up to the capacity', () => {
    // Two functions covered by most of the suite, and forty covered by a few quick tests each.
    const items = [
      { item: 'huge', cost: 2700 },
      { item: 'large', cost: 900 },
      ...Array.from({ length: 40 }, (_, index) => ({ item: `small${index}`, cost: 4 })),
    ];
    const batches = packBatches(items, { workers: 2, maxPerBatch: 200, capacity: 60 });
    expect(batches[0]).toEqual(['huge']);
    expect(batches[1]).toEqual(['large']);
    const small = batches.slice(2);
    // 160 s of cheap work in batches of at most 60 s: 3 processes, not 40.
    expect(small).toHaveLength(3);
    for (const batch of small) expect(costOf(items, batch)).toBeLessThanOrEqual(60);
    expect(batches.flat().sort()).toEqual(items.map((entry) => entry.item).sort());
    const capped = packBatches(items, { workers: 2, maxPerBatch: 5, capacity: 60 });
    expect(Math.max(...capped.map((batch) => batch.length))).toBe(5);
    expect(capped).toHaveLength(2 + 8);
  });
});
