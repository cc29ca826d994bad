import { Box, Text, useInput } from 'ink';
import { type ReactElement, useEffect, useState } from 'react';
import type { EvaluatedRow, EvaluationView } from './evaluate-view.js';
import { evaluatedRowLine, evaluationEta, problemLines } from './evaluate-view.js';
import { formatSeconds } from '../flow-board.js';
import type { KeyHelp } from './help-bar.js';
import { moveOf, movedCursor, windowTop } from './navigation.js';
import { ProgressBar } from './progress-bar.js';
import { ScrollView, useScrollOffset } from './scroll-view.js';
import { line, textLines } from './styled-line.js';
import { useSyncedState } from './synced-state.js';

/**
 * A model's predictions evaluated on the release the curator publishes: choose a predictions file (or
 * the gold patches), watch the run (bar, ETA, live resolved count), browse each prediction's outcome
 * and open its log (the test output and the per-test results).
 */

export const EVALUATE_KEYS: readonly KeyHelp[] = [
  { key: 'p', action: 'predictions file' },
  { key: 'g', action: 'evaluate the gold patches' },
  { key: '↑↓', action: 'move' },
  { key: 'Enter', action: 'open the log' },
  { key: 'Esc', action: 'back' },
];

export interface EvaluateScreenProps {
  readonly view: EvaluationView;
  /** The release folder evaluated (the one publish writes). */
  readonly release: string;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  /** Now, for the ETA (moved every second while it runs). */
  readonly now: number;
  readonly onTextEntry: (typing: boolean) => void;
  /** Starts an evaluation of a predictions file, or of the gold patches (null). */
  readonly onStart: (predictions: string | null) => void;
  readonly loadLog: (row: EvaluatedRow) => Promise<string>;
}

interface ScreenState {
  readonly draft: string | null;
  readonly cursor: number;
  readonly top: number;
  readonly opened: EvaluatedRow | null;
}

export function EvaluateScreen(props: EvaluateScreenProps): ReactElement {
  const { view, width, height, active } = props;
  const [state, read, update] = useSyncedState<ScreenState>({ draft: null, cursor: 0, top: 0, opened: null });
  const head = 5 + Math.min(3, view.problems.length);
  const body = Math.max(1, height - head);
  const rows = view.rows;
  const last = Math.max(0, rows.length - 1);

  useInput(
    (input, key) => {
      const current = read();
      if (current.opened !== null) {
        if (key.escape || key.backspace) update((now) => ({ ...now, opened: null }));
        return;
      }
      if (current.draft !== null) {
        if (key.return) {
          const chosen = current.draft.trim();
          update((now) => ({ ...now, draft: null }));
          props.onTextEntry(false);
          if (chosen !== '') props.onStart(chosen);
        } else if (key.escape) {
          update((now) => ({ ...now, draft: null }));
          props.onTextEntry(false);
        } else if (key.backspace || key.delete) update((now) => ({ ...now, draft: (now.draft ?? '').slice(0, -1) }));
        else if (input !== '' && !key.ctrl && !key.meta)
          update((now) => ({ ...now, draft: (now.draft ?? '') + input }));
        return;
      }
      if (input === 'p' && view.state !== 'running') {
        update((now) => ({ ...now, draft: view.predictions ?? '' }));
        props.onTextEntry(true);
        return;
      }
      if (input === 'g' && view.state !== 'running') {
        props.onStart(null);
        return;
      }
      if (key.return) {
        const row = rows[Math.min(current.cursor, last)];
        if (row !== undefined) update((now) => ({ ...now, opened: row }));
        return;
      }
      const move = moveOf(input, key);
      if (move === null) return;
      update((now) => {
        const moved = movedCursor(Math.min(now.cursor, last), move, rows.length, body);
        return { ...now, cursor: moved, top: windowTop(moved, now.top, body, rows.length) };
      });
    },
    { isActive: active },
  );

  if (state.opened !== null)
    return <LogView row={state.opened} loadLog={props.loadLog} width={width} height={height} active={active} />;

  const cursor = Math.min(state.cursor, last);
  const top = windowTop(cursor, state.top, body, rows.length);
  const eta = evaluationEta(view, props.now);
  const elapsed = view.startedAt === null ? null : (props.now - view.startedAt) / 1000;
  const barWidth = Math.max(10, Math.min(40, width - 50));
  const listed =
    rows.length === 0
      ? [line(view.state === 'idle' ? 'p: a predictions file to evaluate; g: the gold patches' : '', { dim: true })]
      : rows.slice(top, top + body).map((row, index) => evaluatedRowLine(row, width, top + index === cursor));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end">
        release <Text bold>{props.release}</Text>
      </Text>
      <Text wrap="truncate-end">
        predictions{' '}
        {state.draft !== null ? (
          <Text color="cyan">{`${state.draft}▏ (Enter: evaluate, Esc: cancel)`}</Text>
        ) : (
          <Text bold>{view.predictions ?? 'none chosen'}</Text>
        )}
        {view.runId === null ? '' : `  run ${view.runId}`}
      </Text>
      <Text wrap="truncate-end">
        <ProgressBar done={view.done} total={view.total} width={barWidth} />
        {` ${view.done}/${view.total} · ${view.resolved} resolved`}
        {elapsed === null ? '' : ` · ${formatSeconds(elapsed)} elapsed`}
        {eta === null ? '' : ` · ETA ${formatSeconds(eta)}`}
        {view.state === 'running' ? ' · running' : ''}
      </Text>
      <Text wrap="truncate-end" color={view.state === 'failed' ? 'red' : undefined}>
        {view.message ?? ' '}
      </Text>
      <ScrollView
        lines={problemLines(view, width).slice(0, 3)}
        width={width}
        height={Math.min(3, view.problems.length)}
        offset={0}
      />
      <Text> </Text>
      <ScrollView lines={listed} width={width} height={body} offset={0} />
    </Box>
  );
}

/** A prediction's log (results and test output), scrolled with the navigation keys. */
function LogView(props: {
  readonly row: EvaluatedRow;
  readonly loadLog: (row: EvaluatedRow) => Promise<string>;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
}): ReactElement {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    props
      .loadLog(props.row)
      .then(setText)
      .catch((error: unknown) => setText(`the log could not be read: ${String(error)}`));
  }, [props.row, props.loadLog]);
  const lines = [
    line(`${props.row.instanceId} · ${props.row.model} · ${props.row.outcome}`, { bold: true }),
    line(props.row.detail, { dim: true }),
    line(''),
    ...(text === null ? [line('reading the log…', { dim: true })] : textLines(text)),
  ];
  const { offset } = useScrollOffset({ count: lines.length, height: props.height, active: props.active });
  return <ScrollView lines={lines} width={props.width} height={props.height} offset={offset} />;
}
