/** Where a command writes: the real process streams, or buffers in tests. */
export interface CommandIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** True when progress can be redrawn in place (a terminal on stderr). */
  readonly interactive: boolean;
  /** True when a person is at a terminal (stdin and stdout both TTYs): the TUI can run. */
  readonly terminal: boolean;
  /** How often long stages print where they stand (default DEFAULT_PROGRESS_INTERVAL_MS: 30 s). */
  readonly progressIntervalMs?: number;
}

export const processIO: CommandIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
  terminal: process.stdout.isTTY === true && process.stdin.isTTY === true,
};
