import type { ScreenContext, ScreenController } from './screen.js';
import { StagesScreen } from './stages-screen.js';

/** The stages screen's controller: the board the flow's events fold into; r runs (or carries on) the flow. */
export function useStagesScreen({ state, flow }: ScreenContext): ScreenController {
  return {
    onKey: (input) => {
      if (input !== 'r') return false;
      flow.startFlow();
      return true;
    },
    render: ({ width, height }) => (
      <StagesScreen board={state.board} width={width} height={height} now={Math.max(state.now, Date.now())} />
    ),
  };
}
