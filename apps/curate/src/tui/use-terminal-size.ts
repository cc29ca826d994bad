import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  readonly width: number;
  readonly height: number;
}

/** `fixed` (for tests), else the terminal's size, following its resizes. */
export function useTerminalSize(fixed: TerminalSize | undefined): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize =>
    fixed ?? { width: stdout.columns > 0 ? stdout.columns : 80, height: stdout.rows > 0 ? stdout.rows : 24 };
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: listens for resizes once; `fixed` and `read` do not change
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // The stream is the same for the life of the app.
  }, [stdout]);
  return size;
}
