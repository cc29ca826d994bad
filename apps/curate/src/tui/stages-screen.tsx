import { Box, Text } from 'ink';
import type React from 'react';
import { stageTitle } from '@repocod/pipeline';
import type { FlowBoard, StageRow } from '../flow-board.js';
import { elapsedSeconds, etaSeconds, formatSeconds } from '../flow-board.js';
import type { KeyHelp } from './help-bar.js';
import { ProgressBar } from './progress-bar.js';
import { RepositoryMatrix } from './repository-matrix.js';
import { STAGE_MARKS } from './status-colours.js';

export const STAGES_KEYS: readonly KeyHelp[] = [
  { key: 'r', action: 'run / carry on' },
  { key: 'x', action: 'stop the flow' },
];

export interface StagesScreenProps {
  readonly board: FlowBoard;
  readonly width: number;
  readonly height: number;
  /** Milliseconds since the epoch: elapsed times and ETAs are measured to it. */
  readonly now: number;
}

/**
 * Each stage (per repository where it runs per repository) with a live bar, its counts, its elapsed
 * time and ETA, and what it works on; the problems as they happen below. Two lines a stage when there
 * is room. When there is not (many repositories), the per-repository stages become a matrix, a row per
 * repository and a column per stage (repository-matrix.tsx), with the running one's current item under
 * it, and the stages over every repository (select, validate, publish) keep their bars below.
 */
export function StagesScreen({ board, width, height, now }: StagesScreenProps): React.JSX.Element {
  const nameWidth = Math.min(24, Math.max(...board.rows.map((row) => rowName(row).length), 8));
  const problemLines =
    board.problems.length === 0 ? 0 : Math.min(board.problems.length + 1, Math.max(2, Math.floor(height / 3)));
  const room = Math.max(1, height - 1 - problemLines);
  const twoLines = board.rows.length * 2 <= room;
  const repositories = new Set(board.rows.flatMap((row) => (row.repository === null ? [] : [row.repository])));
  if (!twoLines && repositories.size > 1) {
    const overall = board.rows.filter((row) => row.repository === null);
    const running = board.rows.find((row) => row.repository !== null && row.status === 'running');
    const matrixHeight = Math.max(2, room - overall.length - 1);
    const overallWidth = Math.max(8, ...overall.map((row) => rowName(row).length));
    return (
      <Box flexDirection="column" width={width}>
        <Text bold wrap="truncate-end">
          {outcomeText(board, now)}
        </Text>
        <RepositoryMatrix board={board} width={width} height={matrixHeight} now={now} />
        <Text wrap="truncate-end" dimColor>
          {running === undefined
            ? ' '
            : `  ▶ ${rowName(running)} (${formatSeconds(elapsedSeconds(running, now))},${etaText(running, now)}): ` +
              `${detailText(running)}`}
        </Text>
        {overall.map((row) => (
          <StageLine key={row.stage} row={row} nameWidth={overallWidth} width={width} now={now} twoLines={false} />
        ))}
        <Problems board={board} lines={problemLines} />
      </Box>
    );
  }
  const perRow = twoLines ? 2 : 1;
  const visible = Math.max(1, Math.floor(room / perRow));
  const focus = Math.max(
    0,
    board.rows.findIndex((row) => row.status === 'running' || row.status === 'failed'),
  );
  const first = Math.min(Math.max(0, focus - Math.floor(visible / 2)), Math.max(0, board.rows.length - visible));
  const shown = board.rows.slice(first, first + visible);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>{outcomeText(board, now)}</Text>
        {board.rows.length > visible ? (
          <Text dimColor>{`  (stages ${first + 1}–${first + shown.length} of ${board.rows.length})`}</Text>
        ) : null}
      </Text>
      {shown.map((row) => (
        <StageLine
          key={`${row.stage}-${row.repository ?? '*'}`}
          row={row}
          nameWidth={nameWidth}
          width={width}
          now={now}
          twoLines={twoLines}
        />
      ))}
      <Problems board={board} lines={problemLines} />
    </Box>
  );
}

interface StageLineProps {
  readonly row: StageRow;
  readonly nameWidth: number;
  readonly width: number;
  readonly now: number;
  /** The current item (or the summary) on a second line. */
  readonly twoLines: boolean;
}

function StageLine({ row, nameWidth, width, now, twoLines }: StageLineProps): React.JSX.Element {
  const tail = 9 + 10 + 16; // counts, elapsed, eta (` eta 59 min 59 s`)
  const barWidth = Math.max(6, width - 2 - nameWidth - 1 - tail - 1);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={STAGE_MARKS[row.status].color}>{`${STAGE_MARKS[row.status].mark} `}</Text>
        <Text bold={row.status === 'running'}>{rowName(row).slice(0, nameWidth).padEnd(nameWidth)} </Text>
        <ProgressBar
          done={row.status === 'done' ? 1 : row.done}
          total={row.status === 'done' ? 1 : row.total}
          width={barWidth}
          color={row.status === 'failed' ? 'red' : 'green'}
        />
        <Text>{` ${countText(row).padStart(8)}`}</Text>
        <Text dimColor>{` ${row.startedAt === null ? '' : formatSeconds(elapsedSeconds(row, now))}`.padEnd(10)}</Text>
        <Text dimColor>{etaText(row, now).padEnd(16)}</Text>
      </Text>
      {twoLines ? (
        <Text
          wrap="truncate-end"
          color={row.status === 'failed' ? 'red' : undefined}
          dimColor={row.status !== 'failed'}
        >
          {`    ${detailText(row)}`}
        </Text>
      ) : null}
    </Box>
  );
}

function Problems({ board, lines }: { readonly board: FlowBoard; readonly lines: number }): React.JSX.Element | null {
  if (lines === 0) return null;
  return (
    <Box flexDirection="column" marginTop={0}>
      <Text bold color="red" wrap="truncate-end">{`problems (${board.problems.length})`}</Text>
      {board.problems.slice(-(lines - 1)).map((problem, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a problem line is its place in the list
        <Text key={index} wrap="truncate-end" color="red">
          {`  ${problem.stage}${problem.repository === null ? '' : ` ${problem.repository}`}: ` +
            `${problem.message.split('\n')[0] ?? ''}`}
        </Text>
      ))}
    </Box>
  );
}

function rowName(row: StageRow): string {
  return row.repository === null ? row.stage : `${row.stage} ${row.repository}`;
}

function countText(row: StageRow): string {
  if (row.status === 'pending' || row.status === 'skipped' || row.total <= 0) return '';
  return `${row.done}/${row.total}`;
}

function etaText(row: StageRow, now: number): string {
  const eta = etaSeconds(row, now);
  return row.status === 'running' ? ` eta ${eta === null ? '—' : formatSeconds(eta)}` : '';
}

function detailText(row: StageRow): string {
  if (row.status === 'running') return row.item === '' ? stageTitle(row.stage) : row.item;
  if (row.status === 'pending') return stageTitle(row.stage);
  if (row.status === 'skipped') return 'not run';
  return (row.summary ?? '').split('\n')[0] ?? '';
}

function outcomeText(board: FlowBoard, now: number): string {
  const took = board.startedAt === null ? '' : ` (${formatSeconds(((board.endedAt ?? now) - board.startedAt) / 1000)})`;
  switch (board.outcome) {
    case 'idle':
      return 'not started: r runs the flow on the repositories chosen in sources';
    case 'running':
      return `running${took}`;
    case 'ok':
      return `done${took}`;
    case 'failed':
      return `stopped by a failed stage${took}: mend it, then r carries on from the catalog`;
    case 'stopped':
      return `stopped${took}: what finished is in the catalog; r carries on`;
  }
}
