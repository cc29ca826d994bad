import { displayWidth } from '../tui/truncate.js';

/** Test support for the screens: keys as a terminal sends them, and frames as text. */

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  backspace: '\u007F',
} as const;

interface KeyInput {
  write(data: string): void;
}

/** Ink reads input on the next turns of the event loop (a lone Esc waits one for a sequence to follow). */
export function tick(milliseconds = 50): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/**
 * Sends each key on its own, as typed, waiting for Ink to take it: 100 ms, since two test files run at
 * once and a frame can take longer than 50 ms to draw on a busy machine.
 */
export async function press(stdin: KeyInput, ...keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    stdin.write(key);
    await tick(100);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences, on purpose
const ANSI = /\u001B\[[0-9;]*[A-Za-z]/gu;

/** The lines of a frame without colours. */
export function frameLines(frame: string | undefined): string[] {
  return (frame ?? '').replace(ANSI, '').split('\n');
}

/** Lines of a frame wider than `width` columns. */
export function overlong(frame: string | undefined, width: number): string[] {
  return frameLines(frame).filter((row) => displayWidth(row) > width);
}

interface Rendered {
  readonly stdin: KeyInput;
  lastFrame(): string | undefined;
}

/**
 * Every frame of a scroll view from where it is to its end, paging down until the position row says
 * 100% (or the frame stops changing), so that a test can look for a line wherever it is.
 */
export async function pageThrough(screen: Rendered, pageDown: string = KEY.pageDown, limit = 200): Promise<string[]> {
  const frames = [screen.lastFrame() ?? ''];
  for (let page = 0; page < limit; page += 1) {
    if (/\(100%\) ─*$/mu.test(frameLines(frames.at(-1)).join('\n'))) break;
    await press(screen.stdin, pageDown);
    const frame = screen.lastFrame() ?? '';
    if (frame === frames.at(-1)) break;
    frames.push(frame);
  }
  return frames;
}
