import { describe, expect, it } from 'vitest';
import type { FlowEvent, FlowStatus, StageDefinition } from '@repocod/pipeline';
import { FLOW_STAGE_LIST } from '@repocod/pipeline';
import { boardFromStatus, emptyBoard, etaSeconds, foldFlowEvent, formatSeconds } from './flow-board.js';

/** A flow that ran no job. */
const NO_COST = { phases: [], suiteTests: {} };

function fold(events: readonly [FlowEvent, number][]) {
  return events.reduce((board, [event, now]) => foldFlowEvent(board, event, now), emptyBoard([]));
}

describe('the flow board', () => {
  it('has a row per stage and repository for the per-repository stages, one row for the others', () => {
    const board = emptyBoard(['demo', 'flask']);
    expect(board.rows.map((row) => `${row.stage}:${row.repository ?? '*'}`)).toEqual([
      'prepare:demo',
      'prepare:flask',
      'extract:demo',
      'extract:flask',
      'mine:demo',
      'mine:flask',
      'tasks:demo',
      'tasks:flask',
      'select:*',
      'validate:*',
      'publish:*',
    ]);
    expect(board.rows.every((row) => row.status === 'pending')).toBe(true);
  });

  it('follows a stage from start to done, keeping its problems and summary', () => {
    const board = fold([
      [
        {
          kind: 'flow-start',
          repositories: ['demo'],
          stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
        },
        0,
      ],
      [{ kind: 'stage-start', stage: 'tasks', repository: 'demo' }, 1000],
      [{ kind: 'stage-progress', stage: 'tasks', repository: 'demo', done: 5, total: 50, item: 'a' }, 2000],
      [{ kind: 'stage-problem', stage: 'tasks', repository: 'demo', message: 'retry fails' }, 2500],
      [{ kind: 'stage-done', stage: 'tasks', repository: 'demo', summary: '50 tasks', seconds: 2 }, 3000],
    ]);
    const row = board.rows.find((item) => item.stage === 'tasks');
    expect(row).toMatchObject({
      status: 'done',
      done: 50,
      total: 50,
      summary: '50 tasks',
      problems: ['retry fails'],
      startedAt: 1000,
      endedAt: 3000,
    });
    expect(board.problems).toEqual([{ stage: 'tasks', repository: 'demo', message: 'retry fails' }]);
  });

  it('measures the ETA from the start of the current phase', () => {
    const board = fold([
      [
        {
          kind: 'flow-start',
          repositories: ['demo'],
          stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
        },
        0,
      ],
      [{ kind: 'stage-start', stage: 'mine', repository: 'demo' }, 0],
      [{ kind: 'stage-progress', stage: 'mine', repository: 'demo', done: 0, total: 4, item: 'baseline' }, 0],
      [{ kind: 'stage-progress', stage: 'mine', repository: 'demo', done: 4, total: 4, item: 'baseline' }, 40_000],
      // The mutation phase starts at 40 s with a new total: its pace is its own.
      [{ kind: 'stage-progress', stage: 'mine', repository: 'demo', done: 0, total: 10, item: 'mutation' }, 40_000],
      [{ kind: 'stage-progress', stage: 'mine', repository: 'demo', done: 2, total: 10, item: 'f' }, 42_000],
    ]);
    const row = board.rows.find((item) => item.stage === 'mine');
    expect(row === undefined ? null : etaSeconds(row, 42_000)).toBeCloseTo(8, 5);
  });

  it('has no ETA before anything is done', () => {
    const board = fold([
      [
        {
          kind: 'flow-start',
          repositories: ['demo'],
          stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
        },
        0,
      ],
      [{ kind: 'stage-start', stage: 'validate', repository: null }, 0],
      [{ kind: 'stage-progress', stage: 'validate', repository: null, done: 0, total: 50, item: '' }, 10],
    ]);
    const row = board.rows.find((item) => item.stage === 'validate');
    expect(row === undefined ? 'missing' : etaSeconds(row, 5000)).toBeNull();
  });

  it('marks what never ran as skipped when the flow ends, and a failed stage with its message', () => {
    const board = fold([
      [
        {
          kind: 'flow-start',
          repositories: ['demo'],
          stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
        },
        0,
      ],
      [{ kind: 'stage-start', stage: 'prepare', repository: 'demo' }, 0],
      [
        { kind: 'stage-failed', stage: 'prepare', repository: 'demo', message: 'demo: pip install failed', seconds: 1 },
        1000,
      ],
      [{ kind: 'flow-done', ok: false, failures: 1, release: null, seconds: 1, cost: NO_COST }, 1000],
    ]);
    expect(board.outcome).toBe('failed');
    expect(board.rows.find((row) => row.stage === 'prepare')).toMatchObject({
      status: 'failed',
      summary: 'demo: pip install failed',
    });
    expect(board.rows.filter((row) => row.status === 'skipped')).toHaveLength(6);
  });

  it('leaves the stages a run does not include as they stood, and unrun after a good run', () => {
    const before = foldFlowEvent(
      emptyBoard(['demo']),
      { kind: 'stage-done', stage: 'publish', repository: null, summary: 'versions 1.0', seconds: 0 },
      0,
    );
    const board = [
      {
        kind: 'flow-start',
        repositories: ['demo'],
        stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate'],
      },
      { kind: 'flow-done', ok: true, failures: 0, release: null, seconds: 1, cost: NO_COST },
    ].reduce((current, event) => foldFlowEvent(current, event as FlowEvent, 1000), before);
    expect(board.rows.find((row) => row.stage === 'publish')).toMatchObject({
      status: 'done',
      summary: 'versions 1.0',
    });
    expect(board.rows.find((row) => row.stage === 'mine')?.status).toBe('pending');
  });

  it('puts a running stage back to pending when the flow is stopped', () => {
    const board = fold([
      [
        {
          kind: 'flow-start',
          repositories: ['demo'],
          stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
        },
        0,
      ],
      [{ kind: 'stage-start', stage: 'mine', repository: 'demo' }, 0],
      [{ kind: 'flow-stopped', seconds: 1 }, 1000],
    ]);
    expect(board.outcome).toBe('stopped');
    expect(board.rows.find((row) => row.stage === 'mine')?.status).toBe('pending');
  });

  it('formats durations for a column', () => {
    expect([formatSeconds(4.24), formatSeconds(185), formatSeconds(3725)]).toEqual([
      '4.2 s',
      '3 min 05 s',
      '1 h 02 min',
    ]);
  });
});

describe('a stage added to the stage list', () => {
  const audit: StageDefinition = {
    stage: 'audit',
    title: 'an audit of the release',
    rows: 'per-repository',
    runner: () => null,
    stored: (_status, repository) => (repository === undefined ? null : `${repository.tasks} tasks audited`),
  };
  const stages = [...FLOW_STAGE_LIST, audit];

  it('gets its rows on the board, and what the catalog holds of it, from its one object', () => {
    const board = emptyBoard(['demo', 'flask'], stages);
    expect(board.rows.slice(-2).map((row) => `${row.stage} ${row.repository}`)).toEqual(['audit demo', 'audit flask']);
    const repository = {
      name: 'demo',
      origin: 'datasets/demo',
      baseCommit: null,
      standInFor: null,
      checkedOut: true,
      environment: true,
      functions: 10,
      candidates: 5,
      mined: 5,
      withTests: 4,
      tasks: 4,
    };
    const status: FlowStatus = {
      repositories: [repository],
      selection: null,
      validation: { passed: 0, failed: 0, infraError: 0, notValidated: 0 },
      releaseFolder: 'out/release',
      releasedVersions: [],
    };
    const rows = boardFromStatus(status, ['demo'], stages).rows;
    expect(rows.find((row) => row.stage === 'audit')).toMatchObject({
      status: 'done',
      summary: 'in the catalog: 4 tasks audited',
    });
    expect(rows.find((row) => row.stage === 'tasks')).toMatchObject({ summary: 'in the catalog: 4 tasks' });
  });
});
