import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RepositoryLevelMix } from './level-mix-table.js';
import { levelMixMarkdown, meanDistances, mixDistance, referenceCounts, totalVariation } from './level-mix-table.js';
import { readReferenceTable } from './reference-table.js';

const REFERENCE = fileURLToPath(new URL('../../../datasets/repocod/reference', import.meta.url));
const references = {
  'full-v1': readReferenceTable(REFERENCE, 'full-v1'),
  'full-v4': readReferenceTable(REFERENCE, 'full-v4'),
};

const counts = (sc: number, file: number, repo: number) => ({
  'self-contained': sc,
  'file-level': file,
  'repo-level': repo,
});

describe('the level mix against REPOCOD', () => {
  it('is the total variation of the two shares, in percentage points', () => {
    expect(totalVariation(counts(1, 1, 0), counts(1, 1, 0))).toBe(0);
    expect(totalVariation(counts(2, 0, 0), counts(0, 0, 5))).toBe(100);
    // flask, REPOCOD's two labellings: 28/13/2 and 25/10/8 of 43.
    expect(totalVariation(counts(28, 13, 2), counts(25, 10, 8))).toBeCloseTo(13.95, 2);
    expect(totalVariation(counts(0, 0, 0), counts(1, 0, 0))).toBeNull();
    expect(referenceCounts(references['full-v1'], 'flask')).toEqual(counts(28, 13, 2));
    expect(mixDistance(counts(45, 25, 1), counts(28, 13, 2)).short).toEqual(['repo-level']);
  });

  it('averages over the complete repositories only, and says which they are', () => {
    const row = (repository: string, complete: boolean, v1: ReturnType<typeof counts>): RepositoryLevelMix => ({
      repository,
      complete,
      candidates: 10,
      mined: complete ? 10 : 3,
      tasks: v1['self-contained'] + v1['file-level'] + v1['repo-level'],
      modes: { 'repocod-v1': v1, 'repocod-v4': counts(25, 10, 8), deps: counts(1, 1, 1) },
    });
    const rows = [row('flask', true, counts(28, 13, 2)), row('pylint', false, counts(0, 0, 9))];
    const means = meanDistances(rows, references);
    expect(means['repocod-v1']).toEqual({ 'full-v1': 0, 'full-v4': expect.closeTo(13.95, 2) });
    expect(means['repocod-v4']['full-v4']).toBe(0);
    const markdown = levelMixMarkdown(rows, references);
    expect(markdown).toContain('every candidate was mined\n(flask)');
    expect(markdown).toContain(
      '| flask (43 tasks; all 10 candidates mined) | REPOCOD full-v1 | 28 (65%) | 13 (30%) | 2 (5%) |',
    );
    expect(markdown).toContain('| pylint (9 tasks; 3 of 10 candidates mined) | REPOCOD full-v1 |');
    expect(markdown).toContain('|  | repocod-v1 | 0 (0%) | 0 (0%) | 9 (100%) | 100.0, short: self, file | ');
    expect(markdown).toContain('| repocod-v1 | 0.0 | 14.0 |');
  });
});
