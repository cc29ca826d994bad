import { describe, expect, it } from 'vitest';
import { packBatches } from './batches.js';

describe('packBatches', () => {
  it('gives every worker a batch and balances the cost', () => {
    const items = [8, 1, 1, 1, 1, 4, 4].map((cost, index) => ({ item: `f${index}`, cost }));
    const batches = packBatches(items, 2, 10);
    expect(batches.flat().sort()).toEqual(items.map((entry) => entry.item).sort());
    const costs = batches.map((batch) => batch.reduce((sum, id) => sum + (items.find((entry) => entry.item === id)?.cost ?? 0), 0));
    expect(costs).toEqual([10, 10]);
    // Inside a batch the input order is kept.
    for (const batch of batches) expect([...batch].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(batch);
  });

  it('respects the batch size and never makes empty batches', () => {
    const items = Array.from({ length: 7 }, (_, index) => ({ item: index, cost: 1 }));
    const batches = packBatches(items, 2, 3);
    expect(batches.map((batch) => batch.length).sort()).toEqual([2, 2, 3]);
    expect(packBatches(items.slice(0, 1), 4, 3)).toEqual([[0]]);
    expect(packBatches([], 2, 3)).toEqual([]);
  });
});
