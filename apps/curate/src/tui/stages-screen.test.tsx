import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { FlowEvent } from '@repocod/pipeline';
import { FLOW_STAGES } from '@repocod/pipeline';
import { emptyBoard, foldFlowEvent } from '../flow-board.js';
import { StagesScreen } from './stages-screen.js';
import { frameLines, overlong } from '../testing/ink-test-support.js';

/** A flow that ran no job. */
const NO_COST = { phases: [], suiteTests: {} };

const REPOCOD = [
  'astropy',
  'datasets',
  'flask',
  'more-itertools',
  'plotly.py',
  'pylint',
  'scikit-learn',
  'seaborn',
  'sphinx',
  'sympy',
  'xarray',
];

function boardAfter(repositories: readonly string[], events: readonly [FlowEvent, number][]) {
  return events.reduce((board, [event, now]) => foldFlowEvent(board, event, now), emptyBoard(repositories));
}

describe('the stages screen', () => {
  it('draws a bar, the counts, the elapsed time, the ETA and the current item of a running stage', () => {
    const board = boardAfter(
      ['demo'],
      [
        [{ kind: 'flow-start', repositories: ['demo'], stages: [...FLOW_STAGES] }, 0],
        [{ kind: 'stage-start', stage: 'prepare', repository: 'demo' }, 0],
        [
          {
            kind: 'stage-done',
            stage: 'prepare',
            repository: 'demo',
            summary: 'b06a369e0371, python 3.11.7 (pip), 2 worktree(s)',
            seconds: 7.6,
          },
          7600,
        ],
        [{ kind: 'stage-start', stage: 'validate', repository: null }, 10_000],
        [
          {
            kind: 'stage-progress',
            stage: 'validate',
            repository: null,
            done: 0,
            total: 50,
            item: 'demo: 50 of 50 task(s) to validate',
          },
          10_000,
        ],
        [
          {
            kind: 'stage-progress',
            stage: 'validate',
            repository: null,
            done: 10,
            total: 50,
            item: 'demo-inventory.cli.main passed',
          },
          20_000,
        ],
        [
          {
            kind: 'stage-problem',
            stage: 'validate',
            repository: null,
            message:
              'demo-inventory.models.Record.__eq__ failed: fails-without-body: 2 of 13 FAIL_TO_PASS test(s) do not ' +
              'fail without the body',
          },
          21_000,
        ],
      ],
    );
    const app = render(<StagesScreen board={board} width={80} height={20} now={25_000} />);
    const lines = frameLines(app.lastFrame());
    const validate = lines.find((line) => line.includes('validate'));
    // 10 of 50 in the 15 s since the phase began: 40 left at 1.5 s each.
    expect(validate).toMatch(/▶ validate +█+░+ +10\/50 15\.0 s +eta 1 min 00 s/);
    expect(lines.join('\n')).toMatch(/demo-inventory\.cli\.main passed/);
    expect(lines.join('\n')).toMatch(/✓ prepare demo .*7\.6 s/);
    expect(lines.join('\n')).toMatch(
      /problems \(1\)\n {2}validate: demo-inventory\.models\.Record\.__eq__ failed: fails-without-body/,
    );
    expect(overlong(app.lastFrame(), 80)).toEqual([]);
  });

  it('shows eleven repositories in 80×20 as a row each, a column per stage, the running one and its item', () => {
    const events: [FlowEvent, number][] = [
      [{ kind: 'flow-start', repositories: REPOCOD, stages: [...FLOW_STAGES] }, 0],
    ];
    for (const repository of REPOCOD) {
      events.push(
        [{ kind: 'stage-start', stage: 'prepare', repository }, 0],
        [{ kind: 'stage-done', stage: 'prepare', repository, summary: 'ok', seconds: 1 }, 1000],
      );
    }
    events.push(
      [{ kind: 'stage-start', stage: 'extract', repository: 'sympy' }, 1000],
      [
        {
          kind: 'stage-progress',
          stage: 'extract',
          repository: 'sympy',
          done: 300,
          total: 1400,
          item: 'sympy/core/basic.py',
        },
        1000,
      ],
    );
    const board = boardAfter(REPOCOD, events);
    const app = render(<StagesScreen board={board} width={80} height={20} now={3000} />);
    const lines = frameLines(app.lastFrame());
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines[1]).toMatch(/^ {2}repository +prepare +extract +mine +tasks/);
    for (const repository of REPOCOD) expect(lines.some((line) => line.startsWith(`  ${repository} `))).toBe(true);
    expect(lines.find((line) => line.startsWith('  astropy '))).toMatch(/✓ 1\.0 s +· +· +·$/);
    expect(lines.find((line) => line.startsWith('  sympy '))).toMatch(/✓ 1\.0 s +▶ 300\/1400 +· +·$/);
    expect(lines.join('\n')).toMatch(/▶ extract sympy \(2\.0 s, eta —\): sympy\/core\/basic\.py/);
    expect(lines.join('\n')).toMatch(/· select .*\n· validate .*\n· publish /);
    expect(overlong(app.lastFrame(), 80)).toEqual([]);
  });

  it('scrolls the matrix to the running repository when the terminal is short', () => {
    const events: [FlowEvent, number][] = [
      [{ kind: 'flow-start', repositories: REPOCOD, stages: [...FLOW_STAGES] }, 0],
      [{ kind: 'stage-start', stage: 'prepare', repository: 'xarray' }, 0],
    ];
    const board = boardAfter(REPOCOD, events);
    const lines = frameLines(render(<StagesScreen board={board} width={60} height={10} now={500} />).lastFrame());
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines[1]).toMatch(/^ {2}\d+–11 of 11/);
    expect(lines.some((line) => line.startsWith('  xarray '))).toBe(true);
    expect(lines.some((line) => line.startsWith('  astropy '))).toBe(false);
  });

  it('says what to do after a failed stage', () => {
    const board = boardAfter(
      ['demo'],
      [
        [{ kind: 'flow-start', repositories: ['demo'], stages: [...FLOW_STAGES] }, 0],
        [{ kind: 'stage-start', stage: 'prepare', repository: 'demo' }, 0],
        [
          {
            kind: 'stage-failed',
            stage: 'prepare',
            repository: 'demo',
            message: 'demo: the install command failed: pip install pytest==8.3.5',
            seconds: 2,
          },
          2000,
        ],
        [{ kind: 'flow-done', ok: false, failures: 1, release: null, seconds: 2, cost: NO_COST }, 2000],
      ],
    );
    const text = frameLines(render(<StagesScreen board={board} width={80} height={22} now={3000} />).lastFrame()).join(
      '\n',
    );
    expect(text).toMatch(/stopped by a failed stage \(2\.0 s\): mend it, then r carries on from the catalog/);
    expect(text).toMatch(/✗ prepare demo/);
    expect(text).toMatch(/the install command failed/);
    expect(text).toMatch(/- extract demo .*\n {4}not run/);
  });
});
