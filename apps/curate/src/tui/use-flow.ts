import type { Dispatch } from 'react';
import { useCallback, useRef } from 'react';
import type { FlowEvent, FlowStage } from '@repocod/pipeline';
import { FLOW_STAGES, FlowAborted } from '@repocod/pipeline';
import type { CurateSession } from '../curate-session.js';
import type { AppAction, AppState, ScreenName } from './app-state.js';
import { errorLine } from './error-line.js';

/** Every stage but publish: the release waits for the curator's confirmation on the publish screen. */
const FLOW_UNTIL_VALIDATION: readonly FlowStage[] = FLOW_STAGES.filter((stage) => stage !== 'publish');

/** The flow as the screens start and follow it; it runs in this process through the session. */
export interface FlowControls {
  /** Reads the repositories' progress again (the sources screen, after a run). */
  readonly refreshStatus: () => Promise<void>;
  /** Reads what publishing `version` would write: the publish screen's preview. */
  readonly loadPreview: (version: string) => Promise<void>;
  /** Runs `stages` on the chosen repositories, then `after`; `show` is the screen to follow it on. */
  readonly runFlow: (stages: readonly FlowStage[], after: (ok: boolean) => Promise<void>, show?: ScreenName) => void;
  /** Runs (or carries on) every stage up to validation, then hands over to the publish screen. */
  readonly startFlow: () => void;
  /** Stops the flow after its current step. */
  readonly stop: () => void;
}

/** The flow's controls over the shared state: its events fold into the board the stages screen draws. */
export function useFlow(session: CurateSession, state: AppState, dispatch: Dispatch<AppAction>): FlowControls {
  const { running, evaluation, included, version } = state;
  const abort = useRef<AbortController | null>(null);

  // One loader per thing the screens read from the session: each dispatches what it found.
  const refreshStatus = useCallback(
    async () => dispatch({ kind: 'status', status: await session.status() }),
    [session, dispatch],
  );
  const loadPreview = useCallback(
    async (chosen: string) => {
      dispatch({ kind: 'preview', preview: { state: 'loading' } });
      try {
        dispatch({ kind: 'preview', preview: { state: 'ready', summary: await session.previewPublish(chosen) } });
      } catch (error) {
        dispatch({
          kind: 'preview',
          preview: { state: 'error', message: error instanceof Error ? error.message : String(error) },
        });
      }
    },
    [session, dispatch],
  );

  const onEvent = useCallback(
    (event: FlowEvent) => dispatch({ kind: 'flow-event', event, at: Date.now() }),
    [dispatch],
  );

  const runFlow = useCallback(
    (stages: readonly FlowStage[], after: (ok: boolean) => Promise<void>, show?: ScreenName) => {
      if (running) return;
      if (evaluation.state === 'running') {
        dispatch({ kind: 'message', message: 'an evaluation is running: the flow can start once it stops' });
        return;
      }
      if (included.size === 0) {
        dispatch({ kind: 'message', message: 'choose at least one repository (space on the sources screen)' });
        return;
      }
      dispatch({ kind: 'flow-started', screen: show });
      const controller = new AbortController();
      abort.current = controller;
      let ended: string | null = null;
      session
        .run([...included], stages, onEvent, controller.signal, version)
        .then(async (result) => {
          await refreshStatus();
          await after(result.ok);
          if (!result.ok)
            ended = `${result.failures.length} stage(s) failed: the stages screen says why; r carries on once mended`;
        })
        .catch((error: unknown) => {
          if (error instanceof FlowAborted) ended = 'stopped: what finished is in the catalog; r carries on';
          else ended = errorLine(error);
        })
        .finally(() => {
          abort.current = null;
          dispatch({ kind: 'flow-ended', message: ended });
        });
    },
    [running, evaluation.state, included, session, onEvent, version, refreshStatus, dispatch],
  );

  const startFlow = useCallback(() => {
    runFlow(
      FLOW_UNTIL_VALIDATION,
      async (ok) => {
        if (!ok) return;
        dispatch({ kind: 'open', screen: 'publish' });
        await loadPreview(version);
      },
      'stages',
    );
  }, [runFlow, loadPreview, version, dispatch]);

  const stop = useCallback(() => abort.current?.abort(), []);

  return { refreshStatus, loadPreview, runFlow, startFlow, stop };
}
