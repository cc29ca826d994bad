import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandIO } from '../io.js';

/** Shared by the tests only: the demo project, throwaway folders and an IO that records. */

/** datasets/demo; src/testing/ sits four levels below the repository root. */
export const DEMO_ROOT = fileURLToPath(new URL('../../../../datasets/demo', import.meta.url));

/** The built command line, as `pnpm repocod` runs it. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface TempDir {
  readonly dir: string;
  readonly cleanup: () => void;
}

export function makeTempDir(): TempDir {
  const dir = mkdtempSync(join(tmpdir(), 'repocod-curate-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface BufferIO extends CommandIO {
  readonly stdout: () => string;
  readonly stderr: () => string;
}

export function bufferIO(interactive = false): BufferIO {
  let out = '';
  let err = '';
  return {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    interactive,
    terminal: false,
    stdout: () => out,
    stderr: () => err,
  };
}

/** One `repocod` command run in-process, with what it printed. */
export async function runMain(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../main.js');
  const io = bufferIO();
  const code = await main([...args], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
