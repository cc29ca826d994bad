import type { TaskValidationStatus } from '@repocod/pipeline';
import type { RowStatus } from '../flow-board.js';
import type { Colour } from './styled-line.js';

/**
 * One colour per verdict on every screen (a check's status is a task's status short of
 * `not-validated`): green passed, red failed, yellow for the infrastructure, grey for nothing yet.
 */
export const STATUS_COLOURS: Readonly<Record<TaskValidationStatus, Colour>> = {
  passed: 'green',
  failed: 'red',
  'infra-error': 'yellow',
  'not-validated': 'gray',
};

/** A mark that says the status without colour (a terminal without colours, a test). */
export const STATUS_MARKS: Readonly<Record<TaskValidationStatus, string>> = {
  passed: '✓',
  failed: '✗',
  'infra-error': '!',
  'not-validated': '·',
};

/** A stage row's status on the stages screen: its mark and colour. */
export const STAGE_MARKS: Readonly<Record<RowStatus, { readonly mark: string; readonly color: Colour }>> = {
  pending: { mark: '·', color: 'gray' },
  running: { mark: '▶', color: 'yellow' },
  done: { mark: '✓', color: 'green' },
  failed: { mark: '✗', color: 'red' },
  skipped: { mark: '-', color: 'gray' },
};
