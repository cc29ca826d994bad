import type { FlowStatus, RepositoryStatus } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import type { AppState } from './app-state.js';
import { appReducer, initialAppState, REFUSED_WHILE_RUNNING } from './app-state.js';

function repository(name: string, functions: number): RepositoryStatus {
  return {
    ...{ name, origin: name, baseCommit: null, standInFor: null, checkedOut: true, environment: true },
    ...{ functions, candidates: 0, mined: 0, withTests: 0, tasks: 0 },
  };
}

const STATUS: FlowStatus = {
  repositories: [repository('demo', 0), repository('flask', 1409), repository('sympy', 0)],
  selection: null,
  validation: { passed: 0, failed: 0, infraError: 0, notValidated: 0 },
  releaseFolder: 'out/release',
  releasedVersions: [],
};

function start(requested: readonly string[] = []): AppState {
  return initialAppState({ status: STATUS, requested, version: '1.0', now: 0 });
}

describe('the TUI state', () => {
  it('starts on the sources with the named repositories, else those already begun, a stage row each', () => {
    expect([...start().included]).toEqual(['flask']);
    expect([...start(['sympy']).included]).toEqual(['sympy']);
    const state = start();
    expect(state.screen).toBe('sources');
    expect(new Set(state.board.rows.map((row) => row.repository).filter((name) => name !== null))).toEqual(
      new Set(['flask']),
    );
  });

  it('adds and drops repositories and redraws the stages for them, but not while the flow runs', () => {
    const both = appReducer(start(), { kind: 'toggle', names: ['sympy'], include: true });
    expect([...both.included].sort()).toEqual(['flask', 'sympy']);
    expect(both.board.rows.some((row) => row.repository === 'sympy')).toBe(true);
    const running = appReducer(both, { kind: 'flow-started', screen: 'stages' });
    expect(running).toMatchObject({ running: true, screen: 'stages', message: null });
    expect(running.board.outcome).toBe('running');
    const refused = appReducer(running, { kind: 'toggle', names: ['flask'], include: false });
    expect(refused.included).toBe(running.included);
    expect(refused.message).toBe(REFUSED_WHILE_RUNNING);
  });

  it('keeps the message a failed or stopped flow leaves, and the one before a flow that ends well', () => {
    const running = appReducer(start(), { kind: 'flow-started' });
    expect(appReducer(running, { kind: 'flow-ended', message: 'stopped' })).toMatchObject({
      running: false,
      message: 'stopped',
    });
    const noted = appReducer(running, { kind: 'message', message: 'stopping after the current step…' });
    expect(appReducer(noted, { kind: 'flow-ended', message: null }).message).toBe('stopping after the current step…');
  });

  it('opens a task only when one was found, and a screen clears the message line', () => {
    const noted = appReducer(start(), { kind: 'message', message: 'boom' });
    expect(appReducer(noted, { kind: 'detail', detail: null }).screen).toBe('sources');
    expect(appReducer(noted, { kind: 'open', screen: 'tasks' })).toMatchObject({ screen: 'tasks', message: null });
  });

  it('asks before quitting, and lets a screen take the keys while the curator types', () => {
    const asking = appReducer(start(), { kind: 'confirm-quit', asking: true });
    expect(asking.confirmQuit).toBe(true);
    expect(appReducer(asking, { kind: 'confirm-quit', asking: false }).confirmQuit).toBe(false);
    expect(appReducer(start(), { kind: 'typing', typing: true }).typing).toBe(true);
  });
});
