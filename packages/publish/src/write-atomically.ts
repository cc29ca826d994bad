import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a file of a release through a temporary beside it (`.partial`, which releaseFiles never lists), so that a
 * failure leaves the file as it was, never half written.
 */
export function writeAtomically(path: string, data: Uint8Array | string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const temporary = `${path}.partial`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}
