import { Text } from 'ink';
import type { ScreenContext, ScreenController } from './screen.js';
import { useLoaded } from './use-loaded.js';
import { ValidationScreen } from './validation-screen.js';

/** The validation screen's controller: the validations, read as it opens, and a run's log on demand. */
export function useValidationScreen({ session, report }: ScreenContext): ScreenController {
  const overview = useLoaded(() => session.validation(), report);
  return {
    load: overview.load,
    render: (frame) =>
      overview.value === null ? (
        <Text dimColor>reading the validations…</Text>
      ) : (
        <ValidationScreen overview={overview.value} {...frame} loadLog={(runId) => session.log(runId)} />
      ),
  };
}
