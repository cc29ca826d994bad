import { Text } from 'ink';
import type { ScreenContext, ScreenController } from './screen.js';
import { TasksScreen } from './tasks-screen.js';
import { useLoaded } from './use-loaded.js';

/** The tasks screen's controller: the tasks, read as it opens; Enter opens one on the task screen. */
export function useTasksScreen({ session, dispatch, report, setTyping }: ScreenContext): ScreenController {
  const tasks = useLoaded(() => session.tasks(), report);
  return {
    load: tasks.load,
    render: (frame) =>
      tasks.value === null ? (
        <Text dimColor>reading the tasks…</Text>
      ) : (
        <TasksScreen
          tasks={tasks.value}
          {...frame}
          onTextEntry={setTyping}
          onOpen={(instanceId) => {
            session
              .task(instanceId)
              .then((found) => dispatch({ kind: 'detail', detail: found }))
              .catch(report);
          }}
        />
      ),
  };
}
