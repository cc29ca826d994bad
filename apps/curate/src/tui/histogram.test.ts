import { describe, expect, it } from 'vitest';
import { countInBins, groupedHistogram, integerBins } from './histogram.js';

describe('integerBins', () => {
  it('gives each value its bin when the range is small', () => {
    expect(integerBins([1, 3, 2, 1]).map((bin) => bin.label)).toEqual(['1', '2', '3']);
    expect(integerBins([1, 10]).map((bin) => bin.label)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  });

  it('uses about eight round-width bins on round edges otherwise', () => {
    // The demo's complexities (1..13) and solution lengths (1..29).
    expect(integerBins([1, 13, 5]).map((bin) => bin.label)).toEqual([
      '0-1',
      '2-3',
      '4-5',
      '6-7',
      '8-9',
      '10-11',
      '12-13',
    ]);
    expect(integerBins([1, 29, 8]).map((bin) => bin.label)).toEqual(['0-4', '5-9', '10-14', '15-19', '20-24', '25-29']);
    expect(integerBins([9, 249]).map((bin) => bin.label)).toEqual(['0-49', '50-99', '100-149', '150-199', '200-249']);
    expect(integerBins([3, 310]).map((bin) => bin.label)).toEqual([
      '0-49',
      '50-99',
      '100-149',
      '150-199',
      '200-249',
      '250-299',
      '300-349',
    ]);
    expect(integerBins([0, 1000]).map((bin) => bin.label)).toEqual([
      '0-199',
      '200-399',
      '400-599',
      '600-799',
      '800-999',
      '1000-1199',
    ]);
  });

  it('makes no bins of nothing and one bin of one value', () => {
    expect(integerBins([])).toEqual([]);
    expect(integerBins([7, 7])).toEqual([{ low: 7, high: 7, label: '7' }]);
  });
});

describe('countInBins', () => {
  it('counts every value once', () => {
    const values = [1, 2, 2, 13, 5, 4, 4, 4];
    const bins = integerBins(values);
    const counts = countInBins(values, bins);
    expect(counts).toEqual([1, 2, 4, 0, 0, 0, 1]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(values.length);
  });
});

describe('groupedHistogram', () => {
  it('counts per group on shared bins', () => {
    const items = [
      { level: 'self-contained', cc: 1 },
      { level: 'self-contained', cc: 13 },
      { level: 'repo-level', cc: 8 },
    ];
    const histogram = groupedHistogram(
      items,
      (item) => item.cc,
      (item) => item.level,
      ['self-contained', 'file-level', 'repo-level'],
    );
    expect(histogram.bins).toHaveLength(7);
    expect(histogram.groups.map((group) => [group.group, group.total, group.counts.join(' ')])).toEqual([
      ['self-contained', 2, '1 0 0 0 0 0 1'],
      ['file-level', 0, '0 0 0 0 0 0 0'],
      ['repo-level', 1, '0 0 0 0 1 0 0'],
    ]);
  });
});
