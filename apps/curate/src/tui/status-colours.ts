import type { TaskValidationStatus } from '@repocod/pipeline';
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
