import type { EvaluateEvent, FlowEvent, FlowStatus, TaskDetail } from '@repocod/pipeline';
import type { FlowBoard } from '../flow-board.js';
import { boardFromStatus, foldFlowEvent } from '../flow-board.js';
import type { PublishPreview } from './publish-screen.js';
import type { EvaluationView } from './evaluate-view.js';
import { foldEvaluateEvent, IDLE_EVALUATION, startedEvaluation } from './evaluate-view.js';

/** A screen's name in the registry (screens.ts): the state holds which one shows. */
export type ScreenName = string;

/**
 * What the curator's TUI shares between its screens, in one value: the screen that shows, the flow and
 * its board, the release the flow proposes, the evaluation (the flow and it take turns), the message
 * line. What one screen alone reads (the tasks, the validations) is its controller hook's own.
 * Pure, so that every transition is tested without a terminal.
 */
export interface AppState {
  readonly screen: ScreenName;
  readonly status: FlowStatus;
  /** The repositories the flow runs on. */
  readonly included: ReadonlySet<string>;
  /** The stages screen's rows, folded from the flow's events. */
  readonly board: FlowBoard;
  readonly running: boolean;
  /** The clock the stages screen's elapsed times and ETAs read, moved every second while the flow runs. */
  readonly now: number;
  /** The task the tasks table opened: the task screen shows it. */
  readonly detail: TaskDetail | null;
  /** The version the publish screen proposes. */
  readonly version: string;
  readonly preview: PublishPreview;
  readonly outcome: { readonly ok: boolean; readonly message: string } | null;
  /** The message line (an error, a refusal, what happened). */
  readonly message: string | null;
  /** `q` while the flow runs asks first. */
  readonly confirmQuit: boolean;
  /** A screen takes every key as text (a filter, a version): the App's own keys wait. */
  readonly typing: boolean;
  /** The evaluate screen's run: idle until the curator starts one. */
  readonly evaluation: EvaluationView;
}

export type AppAction =
  | { readonly kind: 'open'; readonly screen: ScreenName }
  | { readonly kind: 'status'; readonly status: FlowStatus }
  | { readonly kind: 'toggle'; readonly names: readonly string[]; readonly include: boolean }
  | { readonly kind: 'flow-started'; readonly screen?: ScreenName }
  | { readonly kind: 'flow-event'; readonly event: FlowEvent; readonly at: number }
  | { readonly kind: 'flow-ended'; readonly message: string | null }
  | { readonly kind: 'tick'; readonly now: number }
  | { readonly kind: 'detail'; readonly detail: TaskDetail | null }
  | { readonly kind: 'preview'; readonly preview: PublishPreview }
  | { readonly kind: 'version'; readonly version: string }
  | { readonly kind: 'outcome'; readonly outcome: AppState['outcome'] }
  | { readonly kind: 'message'; readonly message: string | null }
  | { readonly kind: 'confirm-quit'; readonly asking: boolean }
  | { readonly kind: 'typing'; readonly typing: boolean }
  | { readonly kind: 'evaluate-started'; readonly predictions: string; readonly at: number }
  | { readonly kind: 'evaluate-event'; readonly event: EvaluateEvent }
  | { readonly kind: 'evaluate-ended'; readonly ok: boolean; readonly message: string };

export interface InitialAppState {
  readonly status: FlowStatus;
  /** Repositories named with --repo: chosen from the start. */
  readonly requested: readonly string[];
  readonly version: string;
  readonly now: number;
}

export function initialAppState({ status, requested, version, now }: InitialAppState): AppState {
  const included = initialChoice(status, requested);
  return {
    screen: 'sources',
    status,
    included,
    board: boardFromStatus(status, [...included]),
    running: false,
    now,
    detail: null,
    version,
    preview: { state: 'none' },
    outcome: null,
    message: null,
    confirmQuit: false,
    typing: false,
    evaluation: IDLE_EVALUATION,
  };
}

export const REFUSED_WHILE_RUNNING = 'the flow is running: the repositories can change once it stops';

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.kind) {
    case 'open':
      return { ...state, screen: action.screen, message: null };
    case 'status':
      return { ...state, status: action.status };
    case 'toggle': {
      if (state.running) return { ...state, message: REFUSED_WHILE_RUNNING };
      const included = new Set(state.included);
      for (const name of action.names) {
        if (action.include) included.add(name);
        else included.delete(name);
      }
      return { ...state, included, board: boardFromStatus(state.status, [...included]) };
    }
    case 'flow-started':
      if (state.evaluation.state === 'running')
        return { ...state, message: 'an evaluation is running: the flow can start once it stops' };
      return {
        ...state,
        running: true,
        message: null,
        screen: action.screen ?? state.screen,
        board: action.screen === 'stages' ? { ...state.board, outcome: 'running' } : state.board,
      };
    case 'flow-event':
      return { ...state, board: foldFlowEvent(state.board, action.event, action.at) };
    case 'flow-ended':
      return { ...state, running: false, message: action.message ?? state.message };
    case 'tick':
      return { ...state, now: action.now };
    case 'detail':
      return { ...state, detail: action.detail, screen: action.detail === null ? state.screen : 'task' };
    case 'preview':
      return { ...state, preview: action.preview };
    case 'version':
      return { ...state, version: action.version };
    case 'outcome':
      return { ...state, outcome: action.outcome };
    case 'message':
      return { ...state, message: action.message };
    case 'confirm-quit':
      return { ...state, confirmQuit: action.asking };
    case 'typing':
      return { ...state, typing: action.typing };
    case 'evaluate-started':
      // The flow and an evaluation would share the worktrees: one at a time.
      if (state.running || state.evaluation.state === 'running')
        return { ...state, message: 'a flow or an evaluation is running: evaluate once it stops' };
      return { ...state, message: null, evaluation: startedEvaluation(action.predictions, action.at) };
    case 'evaluate-event':
      return { ...state, evaluation: foldEvaluateEvent(state.evaluation, action.event) };
    case 'evaluate-ended':
      return {
        ...state,
        evaluation: { ...state.evaluation, state: action.ok ? 'done' : 'failed', message: action.message },
      };
  }
}

/**
 * The repositories named on the command line, else those the catalog already has tasks or functions of, else the demo.
 */
export function initialChoice(status: FlowStatus, requested: readonly string[]): ReadonlySet<string> {
  if (requested.length > 0) return new Set(requested);
  const started = status.repositories
    .filter((repository) => repository.functions > 0 || repository.tasks > 0)
    .map((repository) => repository.name);
  if (started.length > 0) return new Set(started);
  return new Set(status.repositories.some((repository) => repository.name === 'demo') ? ['demo'] : []);
}
