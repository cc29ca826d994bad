import type { KeyHelp } from './help-bar.js';
import type { TaskOverview } from '@repocod/pipeline';
import { Box, type Key, useInput } from 'ink';
import { type ReactElement, useEffect, useMemo } from 'react';
import { HistogramPanel } from './histogram-panel.js';
import { moveOf, movedCursor, windowTop } from './navigation.js';
import { ScrollView } from './scroll-view.js';
import { line, type Span, type StyledLine } from './styled-line.js';
import { useSyncedState } from './synced-state.js';
import { headerLine, rowLine, taskColumns } from './task-columns.js';
import {
  cycleValue,
  describeView,
  INITIAL_SORT,
  nextLevel,
  nextSort,
  NO_FILTER,
  repositoriesOf,
  reversedSort,
  tableRows,
  type TaskFilter,
  type TaskSort,
  VALIDATION_CYCLE,
} from './task-table.js';

/**
 * The tasks of the catalog as a table to sort, filter and open, with histograms of the tasks in view.
 * The shell loads the tasks; this screen only shows them and handles its keys.
 */

export interface TasksScreenProps {
  readonly tasks: readonly TaskOverview[];
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  readonly onOpen: (instanceId: string) => void;
  /**
   * Told when typing a filter starts and ends: while it lasts every key is text, so the shell must
   * not take its own keys (a `q` in "quote" must not quit).
   */
  readonly onTextEntry?: (typing: boolean) => void;
}

// Short enough that the whole list fits the help bar of an 80-column terminal.
export const TASKS_KEYS: readonly KeyHelp[] = [
  { key: '↑↓', action: 'move' },
  { key: 'Enter', action: 'open' },
  { key: 's/S', action: 'sort' },
  { key: 'r/l/v', action: 'filter repo/level/status' },
  { key: '/', action: 'find' },
  { key: 'c', action: 'clear' },
  { key: 'h', action: 'histograms' },
];

interface TableState {
  readonly sort: TaskSort;
  readonly filter: TaskFilter;
  readonly typing: boolean;
  /** The task at the cursor, kept across sorts and filters while it stays in view. */
  readonly cursorId: string | null;
  readonly top: number;
  readonly histograms: boolean;
}

const INITIAL_STATE: TableState = {
  sort: INITIAL_SORT,
  filter: NO_FILTER,
  typing: false,
  cursorId: null,
  top: 0,
  histograms: false,
};

interface View {
  readonly rows: readonly TaskOverview[];
  readonly cursor: number;
  readonly top: number;
  readonly body: number;
}

/** Where the cursor and the window are over the rows that the state's sort and filters give. */
function viewOf(state: TableState, tasks: readonly TaskOverview[], body: number): View {
  const rows = tableRows(tasks, state.sort, state.filter);
  const cursor = Math.max(
    0,
    rows.findIndex((row) => row.instanceId === state.cursorId),
  );
  return { rows, cursor, top: windowTop(cursor, state.top, body, rows.length), body };
}

/** The state after a key (Enter, which leaves the screen, is the component's). */
function afterKey(
  state: TableState,
  input: string,
  key: Key,
  tasks: readonly TaskOverview[],
  body: number,
): TableState {
  if (state.typing) return afterTypedKey(state, input, key);
  const move = moveOf(input, key);
  if (move !== null) {
    // The histograms panel scrolls itself.
    if (state.histograms) return state;
    const view = viewOf(state, tasks, body);
    const cursor = movedCursor(view.cursor, move, view.rows.length, body);
    return {
      ...state,
      cursorId: view.rows[cursor]?.instanceId ?? null,
      top: windowTop(cursor, view.top, body, view.rows.length),
    };
  }
  const filter = state.filter;
  switch (input) {
    case 's':
      return { ...state, sort: nextSort(state.sort) };
    case 'S':
      return { ...state, sort: reversedSort(state.sort) };
    case 'r':
      return { ...state, filter: { ...filter, repository: cycleValue(repositoriesOf(tasks), filter.repository) } };
    case 'l':
      return { ...state, filter: { ...filter, level: nextLevel(filter.level) } };
    case 'v':
      return { ...state, filter: { ...filter, validation: cycleValue(VALIDATION_CYCLE, filter.validation) } };
    case '/':
      return { ...state, typing: true };
    case 'c':
      return { ...state, filter: NO_FILTER };
    case 'h':
      return { ...state, histograms: !state.histograms };
    default:
      return state;
  }
}

function afterTypedKey(state: TableState, input: string, key: Key): TableState {
  if (key.return || key.escape) return { ...state, typing: false };
  // Terminals send Backspace as DEL, which Ink names delete.
  if (key.backspace || key.delete)
    return { ...state, filter: { ...state.filter, text: state.filter.text.slice(0, -1) } };
  if (key.ctrl || key.meta || key.tab || input === '') return state;
  // A paste arrives as one input; control characters are no part of an id.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are stripped, on purpose
  const text = input.replace(/[\u0000-\u001f\u007f]/gu, '');
  return { ...state, filter: { ...state.filter, text: state.filter.text + text } };
}

function statusLine(state: TableState, shown: number, total: number): StyledLine {
  const spans: Span[] = [{ text: `${shown} of ${total} tasks`, bold: true }];
  const filter = state.typing ? { ...state.filter, text: '' } : state.filter;
  for (const part of describeView(state.sort, filter)) spans.push({ text: ' · ', dim: true }, { text: part });
  if (state.typing)
    spans.push(
      { text: ' · ', dim: true },
      { text: `/${state.filter.text}▏`, color: 'cyan' },
      { text: ' (Enter/Esc ends)', dim: true },
    );
  return spans;
}

export function TasksScreen({ tasks, width, height, active, onOpen, onTextEntry }: TasksScreenProps): ReactElement {
  const [state, read, update] = useSyncedState<TableState>(INITIAL_STATE);
  // The status line and the header take a row each.
  const body = Math.max(1, height - 2);
  const view = useMemo(() => viewOf(state, tasks, body), [state, tasks, body]);
  const columns = useMemo(() => taskColumns(tasks, width), [tasks, width]);

  useEffect(() => onTextEntry?.(state.typing), [state.typing, onTextEntry]);

  useInput(
    (input, key) => {
      const current = read();
      if (key.return && !current.typing && !current.histograms) {
        const now = viewOf(current, tasks, body);
        const row = now.rows[now.cursor];
        if (row !== undefined) onOpen(row.instanceId);
        return;
      }
      update((now) => afterKey(now, input, key, tasks, body));
    },
    { isActive: active },
  );

  const status = statusLine(state, view.rows.length, tasks.length);
  if (state.histograms) {
    return (
      <Box flexDirection="column" width={width} height={height}>
        <ScrollView lines={[status]} width={width} height={1} offset={0} />
        <HistogramPanel
          tasks={view.rows}
          width={width}
          height={Math.max(1, height - 1)}
          active={active && !state.typing}
        />
      </Box>
    );
  }
  const emptyMessage =
    tasks.length === 0
      ? 'no tasks in the catalog yet: run the tasks stage'
      : 'no task matches the filters (c clears them)';
  const rows =
    view.rows.length === 0
      ? [line(emptyMessage, { dim: true })]
      : view.rows
          .slice(view.top, view.top + body)
          .map((task, index) => rowLine(task, columns, view.top + index === view.cursor));
  return (
    <ScrollView
      lines={[status, headerLine(columns, state.sort.column), ...rows]}
      width={width}
      height={height}
      offset={0}
    />
  );
}
