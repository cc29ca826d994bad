import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReferenceBins, readReferenceTable } from './reference-table.js';

const REFERENCE = resolve(new URL('../../..', import.meta.url).pathname, 'datasets/repocod/reference');

describe('readReferenceTable', () => {
  it("reads REPOCOD's published tables: eleven repositories, the levels and the totals", () => {
    const full = readReferenceTable(REFERENCE, 'full-v4');
    expect(Object.keys(full.repositories)).toHaveLength(11);
    expect(full.total.all.tasks).toBe(980);
    expect(full.repositories.flask?.all.tasks).toBe(43);
    expect(full.source).toMatch(/Table 6/);
    const lite = readReferenceTable(REFERENCE, 'lite');
    expect(lite.total['self-contained'].tasks + lite.total['file-level'].tasks + lite.total['repo-level'].tasks).toBe(
      200,
    );
    expect(lite.repositories['scikit-learn']?.all.tasks).toBe(61);
  });

  it('names the file and the field of a cell out of shape', () => {
    const folder = mkdtempSync(join(tmpdir(), 'repocod-reference-'));
    const cell = { nl: 1, gt: 2, cyclo: 3, tasks: 1 };
    const row = { all: cell, 'self-contained': cell, 'file-level': cell, 'repo-level': { ...cell, tasks: 'three' } };
    writeFileSync(
      join(folder, 'lite.json'),
      JSON.stringify({ source: 's', what: 'w', repositories: { flask: row }, total: row }),
    );
    expect(() => readReferenceTable(folder, 'lite')).toThrow(
      /lite\.json: repositories\.flask\.repo-level\.tasks must be a task count \(got "three"\)/,
    );
    expect(() => readReferenceTable(folder, 'full-v1')).toThrow(/full-v1\.json: cannot read/);
  });
});

describe('readReferenceBins', () => {
  it("reads Figure 4's bins, the solution-token bins half-open but the last", () => {
    const bins = readReferenceBins(REFERENCE);
    expect(bins.solutionTokens.map((bin) => bin.tasks).reduce((a, b) => a + b, 0)).toBe(980);
    expect(bins.solutionTokens[0]).toEqual({ from: 0, to: 66, toInclusive: false, tasks: 201 });
    expect(bins.solutionTokens.at(-1)?.toInclusive).toBe(true);
    expect(bins.complexity[0]).toEqual({ from: null, to: 2, toInclusive: true, tasks: 269 });
  });
});
