import type { TaskDetail } from '@repocod/pipeline';
import { explainLevel } from '@repocod/pipeline';
import { checkLines } from './check-lines.js';
import { diffLines } from './diff-lines.js';
import { STATUS_COLOURS } from './status-colours.js';
import { line, type Span, type StyledLine, textLines } from './styled-line.js';
import { plain } from './truncate.js';

/**
 * One task as the sections the task screen scrolls through and jumps between: what it is and why it
 * has its level, its prompt, its patches, its validation.
 */

export interface TaskSection {
  readonly title: string;
  readonly lines: readonly StyledLine[];
}

const LABEL_WIDTH = 12;

function field(label: string, value: string | readonly Span[]): StyledLine {
  const spans = typeof value === 'string' ? [{ text: plain(value) }] : value;
  return [{ text: label.padEnd(LABEL_WIDTH), dim: true }, ...spans];
}

function overview(detail: TaskDetail): StyledLine[] {
  const { task, checkMessages } = detail;
  const { summary, reasons, modes } = explainLevel(task);
  const levelLines = reasons.map((reason) => line(`    ${plain(reason)}`));
  // One line for the labels under every mode (repocod-v1 written v1, to fit 80 columns); the uses behind
  // each are `repocod show`'s.
  const modeLine = modes
    .map(({ mode }) => `${mode.replace('repocod-', '')} ${task.levels[mode]?.level ?? 'not labelled'}`)
    .join(' · ');
  const status = detail.validation?.status ?? 'not-validated';
  return [
    line(task.instanceId, { bold: true }),
    field('repository', `${task.repo} @ ${task.baseCommit.slice(0, 12)} (${task.baseCommitTimestamp})`),
    field('function', `${task.file}::${task.qualname}`),
    field('level', [{ text: task.level, bold: true }, { text: summary }]),
    ...levelLines,
    field('levels', modeLine),
    field(
      'lengths',
      `prompt ${task.promptLines} lines / ${task.promptTokens} tokens · solution ${task.solutionLines} lines / ` +
        `${task.solutionTokens} tokens · cc ${task.complexity}`,
    ),
    field(
      'checks',
      task.checksPassed
        ? [{ text: 'patch checks passed', color: 'green' }]
        : [{ text: 'patch checks FAILED:', color: 'red' }],
    ),
    // A message can hold pytest's collection error, several lines long.
    ...checkMessages.flatMap((message) => textLines(message, { color: 'red' }, '    ')),
    field('validation', [{ text: status, color: STATUS_COLOURS[status] }]),
    line(''),
    line(`FAIL_TO_PASS (${task.failToPass.length})`, { bold: true }),
    ...task.failToPass.map((test) => line(`  ${plain(test)}`)),
  ];
}

function patches(detail: TaskDetail): StyledLine[] {
  const { task } = detail;
  const parts: [string, string][] = [
    ['pre_patches.code: removes the body', task.preCode],
    ['gold_patches.code: puts it back', task.goldCode],
    ['pre_patches.test: removes the FAIL_TO_PASS tests', task.preTest],
    ['gold_patches.test: puts them back', task.goldTest],
  ];
  return parts.flatMap(([title, patch], index) => [
    ...(index === 0 ? [] : [line('')]),
    line(title, { bold: true, color: 'yellow' }),
    ...(patch.trim() === '' ? [line('(empty)', { dim: true })] : diffLines(patch)),
  ]);
}

function validation(detail: TaskDetail): StyledLine[] {
  const stored = detail.validation;
  if (stored === null) return [line('not validated yet: the validate stage judges the selected tasks', { dim: true })];
  const when = new Date(stored.validatedAt).toISOString().slice(0, 16).replace('T', ' ');
  return [
    field('status', [
      { text: stored.status, color: STATUS_COLOURS[stored.status] },
      {
        text:
          ` · ${when} · python ${stored.pythonVersion} · ${stored.repeat} gold run(s) · ` +
          `${stored.seconds.toFixed(1)} s`,
        dim: true,
      },
    ]),
    field('tests', `${stored.failToPass.length} FAIL_TO_PASS test(s) as validated`),
    line(''),
    ...checkLines(detail.checks, stored),
  ];
}

export function taskSections(detail: TaskDetail): TaskSection[] {
  return [
    { title: 'task', lines: overview(detail) },
    { title: 'prompt', lines: textLines(detail.task.prompt) },
    { title: 'patches', lines: patches(detail) },
    { title: 'validation', lines: validation(detail) },
  ];
}
