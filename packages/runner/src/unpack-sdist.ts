import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in a target folder that says which of its entries the unpacked source is (written last). */
const UNPACKED_MARKER = '.unpacked';

/**
 * Unpacks a source distribution (`.tar.gz`) into `target` once, and returns the source folder: an sdist unpacks into
 * one folder, `<name>-<version>`, which is the source (the target itself when the archive holds several entries).
 * The archive is unpacked beside the target and renamed into place with its marker, so an interrupted unpacking is
 * never taken for a finished one, and a second call finds the folder without unpacking again. `tar` keeps the
 * archive's modification times, which is what dates a release (stand-in-source.ts's newestFileTime).
 */
export function unpackSdist(archive: string, target: string): string {
  const unpacked = unpackedSdist(target);
  if (unpacked !== null) return unpacked;
  const partial = `${target}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync('tar', ['-xzf', archive, '-C', partial], { stdio: ['ignore', 'ignore', 'pipe'] });
  const top = readdirSync(partial);
  const folder = top.length === 1 && top[0] !== undefined ? top[0] : '.';
  writeFileSync(join(partial, UNPACKED_MARKER), folder);
  rmSync(target, { recursive: true, force: true });
  renameSync(partial, target);
  return join(target, folder);
}

/** The source folder an earlier unpackSdist left in `target`, or null when it has not finished there. */
export function unpackedSdist(target: string): string | null {
  const marker = join(target, UNPACKED_MARKER);
  return existsSync(marker) ? join(target, readFileSync(marker, 'utf8')) : null;
}
