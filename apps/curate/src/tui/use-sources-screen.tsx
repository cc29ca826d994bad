import type { ScreenContext, ScreenController } from './screen.js';
import { SourcesScreen } from './sources-screen.js';

/** The sources screen's controller: the repositories the flow runs on, read again as it opens. */
export function useSourcesScreen({ state, dispatch, report, flow }: ScreenContext): ScreenController {
  return {
    load: () => {
      flow.refreshStatus().catch(report);
    },
    render: (frame) => (
      <SourcesScreen
        status={state.status}
        included={state.included}
        {...frame}
        onToggle={(names, include) => dispatch({ kind: 'toggle', names, include })}
        onRun={flow.startFlow}
      />
    ),
  };
}
