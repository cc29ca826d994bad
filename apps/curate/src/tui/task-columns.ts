import type { TaskOverview, TaskValidationStatus } from '@repocod/pipeline';
import type { Colour, Span, StyledLine } from './styled-line.js';
import { STATUS_COLOURS } from './status-colours.js';
import { displayWidth, fit } from './truncate.js';

/**
 * The columns of the tasks table for a terminal width: at 80 columns short level and status names
 * and the essential numbers; wider, full names, prompt tokens and the file. Whatever is left goes to
 * the instance id, cut at its start (its end names the function).
 */

export interface Column {
  readonly name: string;
  readonly header: string;
  readonly width: number;
  readonly align: 'left' | 'right';
  readonly cell: (task: TaskOverview) => string;
  readonly color?: (task: TaskOverview) => Colour | undefined;
}

/** From this width the table has room for full names and prompt tokens (and the file when it fits). */
export const WIDE_TABLE = 120;

/** The instance id keeps at least this much; narrower columns go first. */
const MIN_ID_WIDTH = 16;

/** The cursor mark and the selection mark, then a space. */
const GUTTER_WIDTH = 3;

const SHORT_VALIDATION: Readonly<Record<TaskValidationStatus, string>> = {
  passed: 'passed',
  failed: 'failed',
  'infra-error': 'infra',
  'not-validated': '-',
};

const SHORT_LEVEL: Readonly<Record<TaskOverview['level'], string>> = {
  'self-contained': 'self',
  'file-level': 'file',
  'repo-level': 'repo',
};

interface ColumnSpec {
  readonly name: string;
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly cell: (task: TaskOverview) => string;
  readonly color?: (task: TaskOverview) => Colour | undefined;
  /** Narrow tables drop the lowest first (0: never dropped). */
  readonly keep: number;
  /** A cap on the column's width (names can be long). */
  readonly max?: number;
}

function specs(wide: boolean): ColumnSpec[] {
  const number = (name: string, header: string, value: (task: TaskOverview) => number, keep: number): ColumnSpec => ({
    name,
    header,
    align: 'right',
    cell: (task) => String(value(task)),
    keep,
  });
  return [
    {
      name: 'repository',
      header: 'repo',
      align: 'left',
      cell: (task) => task.repository,
      keep: 3,
      max: wide ? 20 : 12,
    },
    {
      name: 'level',
      header: 'level',
      align: 'left',
      cell: (task) => (wide ? task.level : SHORT_LEVEL[task.level]),
      keep: 0,
    },
    number('complexity', 'cc', (task) => task.complexity, 0),
    number('promptLines', 'p.ln', (task) => task.promptLines, 4),
    number('solutionLines', 's.ln', (task) => task.solutionLines, 0),
    ...(wide ? [number('promptTokens', 'p.tok', (task) => task.promptTokens, 6)] : []),
    number('solutionTokens', 's.tok', (task) => task.solutionTokens, 5),
    number('tests', 'tests', (task) => task.tests, 2),
    {
      name: 'validation',
      header: wide ? 'validation' : 'valid.',
      align: 'left',
      cell: (task) => (wide ? task.validation : SHORT_VALIDATION[task.validation]),
      color: (task) => STATUS_COLOURS[task.validation],
      keep: 0,
    },
  ];
}

function widthOf(spec: ColumnSpec, tasks: readonly TaskOverview[]): number {
  const widest = Math.max(displayWidth(spec.header), ...tasks.map((task) => displayWidth(spec.cell(task))));
  return Math.min(widest, spec.max ?? widest);
}

/** The columns that fit in `width`, the instance id first, each sized to its content. */
export function taskColumns(tasks: readonly TaskOverview[], width: number): Column[] {
  const wide = width >= WIDE_TABLE;
  let chosen = specs(wide).map((spec) => ({ spec, width: widthOf(spec, tasks) }));
  const used = (): number => GUTTER_WIDTH + chosen.reduce((sum, column) => sum + column.width + 1, 0);
  // Drop the least needed columns while the id would get less than its minimum.
  while (width - used() < MIN_ID_WIDTH) {
    const droppable = chosen.filter((column) => column.spec.keep > 0).sort((a, b) => b.spec.keep - a.spec.keep)[0];
    if (droppable === undefined) break;
    chosen = chosen.filter((column) => column !== droppable);
  }
  const longestId = Math.max(2, ...tasks.map((task) => displayWidth(task.instanceId)));
  const longestFile = Math.max(4, ...tasks.map((task) => displayWidth(task.file)));
  const room = Math.max(MIN_ID_WIDTH, width - used());
  const idWidth = Math.min(room, longestId);
  const fileWidth = wide ? Math.min(longestFile, room - idWidth - 1) : 0;
  const columns: Column[] = [
    { name: 'id', header: 'instance id', width: idWidth, align: 'left', cell: (task) => task.instanceId },
    ...chosen.map(({ spec, width: columnWidth }) => ({
      name: spec.name,
      header: spec.header,
      width: columnWidth,
      align: spec.align,
      cell: spec.cell,
      ...(spec.color === undefined ? {} : { color: spec.color }),
    })),
  ];
  // The file only when it can be read (a few characters of a path say nothing).
  if (fileWidth >= 12)
    columns.push({ name: 'file', header: 'file', width: fileWidth, align: 'left', cell: (task) => task.file });
  return columns;
}

/** The header row, the sorted column in bold. */
export function headerLine(columns: readonly Column[], sortedColumn: string): StyledLine {
  const spans: Span[] = [{ text: ' '.repeat(GUTTER_WIDTH), dim: true }];
  columns.forEach((column, index) => {
    const text = fit(column.header, column.width, column.align);
    const sorted = column.name === sortedColumn;
    spans.push({
      text: index === 0 ? text : ` ${text}`,
      bold: true,
      ...(sorted ? { color: 'cyan' as const } : { dim: true }),
    });
  });
  return spans;
}

/** One task's row: `›` at the cursor (drawn inverse), `•` when selected, `✗` when its patch checks failed. */
export function rowLine(task: TaskOverview, columns: readonly Column[], cursor: boolean): StyledLine {
  const mark = task.checksPassed ? (task.selected ? '•' : ' ') : '✗';
  const spans: Span[] = [
    { text: `${cursor ? '›' : ' '}${mark} `, ...(task.checksPassed ? {} : { color: 'red' as const }) },
  ];
  columns.forEach((column, index) => {
    const text = fit(column.cell(task), column.width, column.align, column.name === 'id' ? 'start' : 'end');
    const color = column.color?.(task);
    spans.push({ text: index === 0 ? text : ` ${text}`, ...(color === undefined ? {} : { color }) });
  });
  return cursor ? spans.map((span) => ({ ...span, inverse: true })) : spans;
}
