import { Box, Text } from 'ink';
import type React from 'react';
import type { FlowStage } from '@repocod/pipeline';
import type { FlowBoard, StageRow } from '../flow-board.js';
import { elapsedSeconds, formatSeconds } from '../flow-board.js';
import { STAGE_MARKS } from './status-colours.js';

/**
 * The per-repository stages of a board with many repositories, a row per repository and a column per
 * stage: eleven repositories × four stages are 44 lines as a list, which no terminal shows whole, and
 * a curator watching a rebuild asks "where is each repository", which a row answers at a glance.
 */
export interface RepositoryMatrixProps {
  readonly board: FlowBoard;
  readonly width: number;
  /** Lines it may take (the header included); the running repository is kept in view. */
  readonly height: number;
  readonly now: number;
}

export function RepositoryMatrix({ board, width, height, now }: RepositoryMatrixProps): React.JSX.Element {
  const layout = matrixLayout(board);
  const nameWidth = Math.min(17, Math.max(10, ...layout.repositories.map((name) => name.length + 1)));
  const cellWidth = Math.max(8, Math.floor((width - 2 - nameWidth) / Math.max(1, layout.stages.length)));
  const visible = Math.max(1, height - 1);
  const focus = Math.max(
    0,
    layout.repositories.findIndex((repository) =>
      layout.stages.some((stage) => ['running', 'failed'].includes(layout.cell(stage, repository)?.status ?? '')),
    ),
  );
  const first = Math.min(
    Math.max(0, focus - Math.floor(visible / 2)),
    Math.max(0, layout.repositories.length - visible),
  );
  const shown = layout.repositories.slice(first, first + visible);
  const more = layout.repositories.length > shown.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end" dimColor>
        {`  ${(more ? `${first + 1}–${first + shown.length} of ${layout.repositories.length}` : 'repository')
          .slice(0, nameWidth)
          .padEnd(nameWidth)}${layout.stages.map((stage) => stage.padEnd(cellWidth)).join('')}`}
      </Text>
      {shown.map((repository) => (
        <Text key={repository} wrap="truncate-end">
          <Text>{`  ${repository.slice(0, nameWidth - 1).padEnd(nameWidth)}`}</Text>
          {layout.stages.map((stage) => {
            const row = layout.cell(stage, repository);
            if (row === undefined) return <Text key={stage}>{''.padEnd(cellWidth)}</Text>;
            return (
              <Text key={stage} color={STAGE_MARKS[row.status].color} bold={row.status === 'running'}>
                {matrixCell(row, now)
                  .slice(0, cellWidth - 1)
                  .padEnd(cellWidth)}
              </Text>
            );
          })}
        </Text>
      ))}
    </Box>
  );
}

/** The per-repository stages in flow order, the repositories in the board's order, and a row lookup. */
export function matrixLayout(board: FlowBoard): {
  readonly stages: readonly FlowStage[];
  readonly repositories: readonly string[];
  readonly cell: (stage: FlowStage, repository: string) => StageRow | undefined;
} {
  const stages: FlowStage[] = [];
  const repositories: string[] = [];
  const rows = new Map<string, StageRow>();
  for (const row of board.rows) {
    if (row.repository === null) continue;
    if (!stages.includes(row.stage)) stages.push(row.stage);
    if (!repositories.includes(row.repository)) repositories.push(row.repository);
    rows.set(`${row.stage}\u0000${row.repository}`, row);
  }
  return { stages, repositories, cell: (stage, repository) => rows.get(`${stage}\u0000${repository}`) };
}

/**
 * `✓ 7.6 s` when done, `▶ 3/12` while it runs (its time and item are on the line under the matrix), `✗ 2.0 s`
 * when it failed, `·` before it starts.
 */
export function matrixCell(row: StageRow, now: number): string {
  const mark = STAGE_MARKS[row.status].mark;
  switch (row.status) {
    case 'pending':
      return mark;
    case 'skipped':
      return `${mark} not run`;
    case 'running': {
      return row.total > 0 ? `${mark} ${row.done}/${row.total}` : `${mark} ${formatSeconds(elapsedSeconds(row, now))}`;
    }
    case 'done':
    case 'failed':
      return `${mark} ${row.startedAt === null ? 'in catalog' : formatSeconds(elapsedSeconds(row, now))}`;
  }
}
