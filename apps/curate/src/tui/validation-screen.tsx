import type { KeyHelp } from './help-bar.js';
import type { ValidationOverview } from '@repocod/pipeline';
import { Box, useInput } from 'ink';
import { type ReactElement, useCallback, useEffect } from 'react';
import { FailureView } from './failure-view.js';
import { moveOf, movedCursor, windowTop } from './navigation.js';
import { ScrollView } from './scroll-view.js';
import { useSyncedState } from './synced-state.js';
import { line } from './styled-line.js';
import { entryLine, idColumnWidth, statusColumnWidth, summaryLines } from './validation-lines.js';

/**
 * The validation of the latest selection: its counts, its tasks failures first with the check that
 * failed, and a task's failure opened whole (checks, tests, log).
 */

export interface ValidationScreenProps {
  readonly overview: ValidationOverview;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  readonly loadLog: (runId: string) => Promise<string | null>;
  /** Told when a task's failure opens and closes: while open, Esc is this screen's (it goes back to the list). */
  readonly onFailureView?: (open: boolean) => void;
}

export const VALIDATION_KEYS: readonly KeyHelp[] = [
  { key: '↑↓ PgUp PgDn', action: 'move' },
  { key: 'Enter', action: "open the task's failure" },
  { key: 'f', action: 'load the whole log' },
  { key: 'Esc', action: 'back to the list' },
];

interface ListState {
  readonly cursor: number;
  readonly top: number;
  /** The instance id of the task whose failure is open. */
  readonly opened: string | null;
}

export function ValidationScreen({
  overview,
  width,
  height,
  active,
  loadLog,
  onFailureView,
}: ValidationScreenProps): ReactElement {
  const [state, read, update] = useSyncedState<ListState>({ cursor: 0, top: 0, opened: null });
  const entries = overview.entries;
  const opened = entries.find((entry) => entry.instanceId === state.opened) ?? null;
  // The summary takes two rows and a blank one.
  const body = Math.max(1, height - 3);
  const last = Math.max(0, entries.length - 1);
  const cursor = Math.min(state.cursor, last);
  const top = windowTop(cursor, state.top, body, entries.length);

  useEffect(() => onFailureView?.(opened !== null), [opened, onFailureView]);

  // Subscribed while a failure is open too (it ignores the keys then): switching it off and on as
  // the failure opens and closes would drop a key that comes right after Esc.
  useInput(
    (input, key) => {
      const current = read();
      if (current.opened !== null) return;
      if (key.return) {
        const entry = entries[Math.min(current.cursor, last)];
        if (entry !== undefined) update((now) => ({ ...now, opened: entry.instanceId }));
        return;
      }
      const move = moveOf(input, key);
      if (move === null) return;
      update((now) => {
        const moved = movedCursor(Math.min(now.cursor, last), move, entries.length, body);
        return { ...now, cursor: moved, top: windowTop(moved, now.top, body, entries.length) };
      });
    },
    { isActive: active },
  );

  const back = useCallback(() => update((now) => ({ ...now, opened: null })), [update]);

  if (opened !== null) {
    return (
      <FailureView
        key={opened.instanceId}
        entry={opened}
        width={width}
        height={height}
        active={active}
        loadLog={loadLog}
        onBack={back}
      />
    );
  }
  const columns = { status: statusColumnWidth(entries), id: idColumnWidth(entries, width) };
  const rows =
    entries.length === 0
      ? [line(overview.selectionId === null ? '' : 'the selection is empty', { dim: true })]
      : entries.slice(top, top + body).map((entry, index) => entryLine(entry, columns, top + index === cursor));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <ScrollView lines={[...summaryLines(overview), line('')]} width={width} height={3} offset={0} />
      <ScrollView lines={rows} width={width} height={body} offset={0} />
    </Box>
  );
}
