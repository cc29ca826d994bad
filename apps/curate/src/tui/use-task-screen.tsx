import type { ScreenContext, ScreenController } from './screen.js';
import { TaskScreen } from './task-screen.js';

/** The task screen's controller: the task the tasks table opened; Esc goes back to the table. */
export function useTaskScreen({ state, dispatch }: ScreenContext): ScreenController {
  return {
    // The task screen's digits and Tab move between its sections: Esc is the way back.
    onKey: (_input, key) => {
      if (!key.escape && !key.backspace) return false;
      dispatch({ kind: 'open', screen: 'tasks' });
      return true;
    },
    render: (frame) => (state.detail === null ? null : <TaskScreen detail={state.detail} {...frame} />),
  };
}
