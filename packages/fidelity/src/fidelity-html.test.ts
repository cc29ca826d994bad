import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { colourPerRow, decodePng, renderedDom, screenshot } from '@repocod/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { compareBins } from './bin-comparison.js';
import { compareWithReference } from './fidelity-comparison.js';
import { fidelityHtml } from './fidelity-html.js';
import { readReferenceBins, readReferenceTable } from './reference-table.js';
import type { MeasuredTask } from './task-statistics.js';
import { taskStatistics } from './task-statistics.js';

const REFERENCE = resolve(new URL('../../..', import.meta.url).pathname, 'datasets/repocod/reference');
const folder = mkdtempSync(join(tmpdir(), 'repocod-fidelity-html-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('fidelityHtml', () => {
  // 86 flask tasks (REPOCOD has 43) and one of a repository REPOCOD does not have, named to be escaped.
  const tasks: MeasuredTask[] = [
    ...Array.from(
      { length: 86 },
      (): MeasuredTask => ({
        repository: 'flask',
        level: 'file-level',
        promptTokens: 300,
        solutionTokens: 150,
        complexity: 4,
      }),
    ),
    { repository: '<own>', level: 'self-contained', promptTokens: 10, solutionTokens: 10, complexity: 1 },
  ];
  const comparison = compareWithReference(taskStatistics(tasks), readReferenceTable(REFERENCE, 'full-v4'));
  const page = join(folder, 'fidelity.html');
  writeFileSync(
    page,
    fidelityHtml('Fidelity & co', [
      { title: 'All tasks', comparison, bins: compareBins(tasks, readReferenceBins(REFERENCE)) },
    ]),
  );

  it('shows the table cell by cell, the fidelity lines and the bins, its text escaped', { timeout: 60_000 }, () => {
    const dom = renderedDom(page);
    expect(dom).toContain('<title>Fidelity &amp; co</title>');
    expect(dom).toMatch(/<td>flask<\/td><td>all<\/td><td class="n">86 \/ 43 \(\+43\)<\/td>/);
    expect(dom).toContain("<li>flask: 86 tasks for REPOCOD's 43 (2.00×); #NL ");
    expect(dom).toContain('<li>&lt;own&gt;: 1 tasks (not a REPOCOD repository)</li>');
    expect(dom).toMatch(/<td>128–231<\/td><td class="n">86 \(98\.9%\)<\/td><td class="n">194 \(19\.8%\)<\/td>/);
    expect(dom).not.toContain('<own>');
  });

  it("draws each repository's bars as long as its counts (screenshot)", { timeout: 60_000 }, () => {
    const image = decodePng(screenshot(page, 1000, 900));
    // scikit-learn's 314 is the largest count: 520 px; flask's 86 ours is 142 px, its 43 REPOCOD's 71 px.
    const ours = new Set(colourPerRow(image, '#0969da').filter((count) => count > 0));
    const theirs = new Set(colourPerRow(image, '#bf8700').filter((count) => count > 0));
    expect(ours.has(142)).toBe(true);
    expect(theirs.has(520)).toBe(true);
    expect(theirs.has(71)).toBe(true);
  });
});
