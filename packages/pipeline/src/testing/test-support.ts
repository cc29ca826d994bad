import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Shared by the tests only: the demo project and throwaway folders. */

/** datasets/demo; this file sits four levels below the repository root (packages/pipeline/src/testing). */
export const DEMO_ROOT = fileURLToPath(new URL('../../../../datasets/demo', import.meta.url));

export interface TempDir {
  readonly dir: string;
  readonly cleanup: () => void;
}

export function makeTempDir(prefix = 'repocod-pipeline-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A private copy of the demo project, for tests that change its files. */
export function copyDemo(into: string): string {
  const root = join(into, 'demo');
  cpSync(DEMO_ROOT, root, { recursive: true });
  return root;
}
