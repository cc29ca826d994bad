import { EVALUATE_KEYS } from './evaluate-screen.js';
import { PUBLISH_KEYS } from './publish-screen.js';
import type { Screen } from './screen.js';
import { SOURCES_KEYS } from './sources-screen.js';
import { STAGES_KEYS } from './stages-screen.js';
import { TASK_KEYS } from './task-screen.js';
import { TASKS_KEYS } from './tasks-screen.js';
import { useEvaluateScreen } from './use-evaluate-screen.js';
import { usePublishScreen } from './use-publish-screen.js';
import { useSourcesScreen } from './use-sources-screen.js';
import { useStagesScreen } from './use-stages-screen.js';
import { useTaskScreen } from './use-task-screen.js';
import { useTasksScreen } from './use-tasks-screen.js';
import { useValidationScreen } from './use-validation-screen.js';
import { VALIDATION_KEYS } from './validation-screen.js';

/**
 * The curator's screens, one entry each: the tabs are numbered in this order, and the App's tab list,
 * keys, help bar and body all read from here. A screen is a view, a controller hook beside it, and a
 * line below.
 */
export const SCREENS: readonly Screen[] = [
  { name: 'sources', tab: 'sources', keys: SOURCES_KEYS, useScreen: useSourcesScreen },
  { name: 'stages', tab: 'stages', keys: STAGES_KEYS, useScreen: useStagesScreen },
  { name: 'tasks', tab: 'tasks', keys: TASKS_KEYS, useScreen: useTasksScreen },
  {
    name: 'task',
    tab: null,
    within: 'tasks',
    keys: [{ key: 'esc', action: 'back to the tasks' }, ...TASK_KEYS],
    useScreen: useTaskScreen,
  },
  { name: 'validation', tab: 'validation', keys: VALIDATION_KEYS, useScreen: useValidationScreen },
  { name: 'publish', tab: 'publish', keys: PUBLISH_KEYS, useScreen: usePublishScreen },
  { name: 'evaluate', tab: 'evaluate', keys: EVALUATE_KEYS, useScreen: useEvaluateScreen },
];
