import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourPerRow, decodePng, renderedDom, screenshot } from '@repocod/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluationReport } from './evaluation-report.js';
import { reportHtml } from './report-html.js';

const folder = mkdtempSync(join(tmpdir(), 'repocod-report-html-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const tasks = [
  { instanceId: 'a-1', repository: 'alpha', level: 'self-contained', complexity: 1, solutionTokens: 10 },
  { instanceId: 'a-2', repository: 'alpha', level: 'self-contained', complexity: 3, solutionTokens: 100 },
  { instanceId: 'b-1', repository: 'beta', level: 'repo-level', complexity: 12, solutionTokens: 500 },
  { instanceId: 'b-2', repository: 'beta', level: 'repo-level', complexity: 7, solutionTokens: 300 },
  { instanceId: 'b-3', repository: 'beta', level: 'repo-level', complexity: 7, solutionTokens: 300 },
  { instanceId: 'b-4', repository: 'beta', level: 'repo-level', complexity: 7, solutionTokens: 300 },
];
const report = evaluationReport('run <1>', 'model & co', tasks, [
  { instanceId: 'a-1', outcome: 'resolved' },
  { instanceId: 'a-2', outcome: 'resolved' },
  { instanceId: 'b-1', outcome: 'resolved' },
  { instanceId: 'b-2', outcome: 'unresolved' },
  { instanceId: 'b-3', outcome: 'timeout' },
]);
const rows = tasks.map((task) => ({
  ...task,
  outcome: task.instanceId === 'b-1' ? 'resolved' : 'unresolved',
  detail: '<x>',
}));

describe('reportHtml in headless Chromium', () => {
  const page = join(folder, 'report.html');
  writeFileSync(page, reportHtml(report, rows));

  it('shows the headline, the tables and every task, its text escaped', () => {
    const dom = renderedDom(page);
    expect(dom).toContain('<p class="headline" id="pass-at-1">pass@1 50.0%</p>');
    expect(dom).toContain('<title>repocod evaluation run &lt;1&gt;: model &amp; co</title>');
    expect(dom).toMatch(
      /<td>self-contained<\/td><td class="n">2<\/td><td class="n">2<\/td><td class="n">100\.0%<\/td>/,
    );
    expect(dom).toMatch(/<td>repo-level<\/td><td class="n">4<\/td><td class="n">1<\/td><td class="n">25\.0%<\/td>/);
    expect(dom.match(/<tr><td>[ab]-\d<\/td>/g)).toHaveLength(6);
    expect(dom).not.toContain('<x>');
  });

  it('draws each bar as long as its pass@1 (screenshot)', () => {
    const image = decodePng(screenshot(page, 1000, 700));
    // The first chart is per context level: self-contained at 100% (420 px), repo-level at 25% (105 px).
    const bars = colourPerRow(image, '#2da44e').filter((count) => count > 0);
    const widths = [...new Set(bars)];
    expect(widths.slice(0, 2)).toEqual([420, 105]);
  });
});
