import { useCallback } from 'react';
import { errorLine } from './error-line.js';
import { EvaluateScreen } from './evaluate-screen.js';
import type { EvaluatedRow } from './evaluate-view.js';
import type { ScreenContext, ScreenController } from './screen.js';

/**
 * The evaluate screen's controller: an evaluation of the release (a predictions file or the gold
 * patches), one at a time and never beside the flow (they would share the worktrees), and its logs.
 */
export function useEvaluateScreen({ session, state, dispatch, setTyping }: ScreenContext): ScreenController {
  const { running, evaluation, now } = state;

  const startEvaluation = (predictions: string | null): void => {
    if (running || evaluation.state === 'running') {
      dispatch({ kind: 'message', message: 'a flow or an evaluation is running: evaluate once it stops' });
      return;
    }
    dispatch({ kind: 'evaluate-started', predictions: predictions ?? 'gold', at: Date.now() });
    session
      .evaluate(predictions, (event) => dispatch({ kind: 'evaluate-event', event }))
      .then((summary) => {
        const report = summary.reports.find((entry) => entry.model !== undefined)?.report;
        const headline =
          report === undefined
            ? 'nothing was evaluated'
            : `pass@1 ${(report.pass_at_1 * 100).toFixed(1)}%: ${report.resolved_instances} of ` +
              `${report.total_instances} resolved (${summary.reports.length} model(s); report ` +
              `${summary.reports[0]?.file ?? ''})`;
        dispatch({ kind: 'evaluate-ended', ok: true, message: headline });
      })
      .catch((error: unknown) => dispatch({ kind: 'evaluate-ended', ok: false, message: errorLine(error) }));
  };

  // The log view loads again when this changes: the same function while the run is the same.
  const loadLog = useCallback(
    async (row: EvaluatedRow) => session.evaluationLog(evaluation.runId ?? '', row.model, row.instanceId),
    [session, evaluation.runId],
  );

  return {
    render: (frame) => (
      <EvaluateScreen
        view={evaluation}
        release={session.settings.out}
        {...frame}
        now={Math.max(now, Date.now())}
        onTextEntry={setTyping}
        onStart={startEvaluation}
        loadLog={loadLog}
      />
    ),
  };
}
