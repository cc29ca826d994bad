import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BodyHistoryRow, CatalogFunction } from '@repocod/catalog';
import type { FunctionRecord } from '@repocod/core';
import { loadPythonParser, parsePythonFile } from '@repocod/python';
import { releaseDiffCommit } from './body-dating.js';
import type { DatedAgainst } from './dated-against.js';
import { releaseDiffDating } from './dated-against.js';
import { bodyChanges, changedAfterOlder } from './release-diff.js';

/**
 * The functions' bodies of a snapshot without history dated against an older release, as the catalog's rows: the
 * older release's files the functions are in are read and extracted as the snapshot's were (a file it lacks has no
 * functions there; one it cannot decode neither), the bodies compared (release-diff.ts), and each row says:
 *
 * - a body changed after the older release (`changed`, `added`): `release-diff:OLD..NEW`, dated at the newer
 *   release (the snapshot's newest file): the change is known to be between the two, not when;
 * - a body as it was in the older release: `release-diff:..OLD`, dated at the older release (it was written then or
 *   before: the older release is before the cutoff, so it is not new, which is all a cutoff asks);
 * - a body without a code line: null, as blame gives it.
 */
export async function releaseDiffRows(
  dated: DatedAgainst,
  functions: readonly CatalogFunction[],
): Promise<BodyHistoryRow[]> {
  const older = await olderFunctions(dated.against.folder, new Set(functions.map((fn) => fn.file)));
  const changes = bodyChanges(functions, older);
  const dating = releaseDiffDating(dated);
  return functions.map((fn): BodyHistoryRow => {
    const change = changes.get(fn) ?? 'no-code-line';
    if (change === 'no-code-line') return { functionId: fn.functionId, bodyCommit: null, bodyChangedAt: null };
    const changed = changedAfterOlder(change);
    return {
      functionId: fn.functionId,
      bodyCommit: releaseDiffCommit(dating, changed),
      bodyChangedAt: new Date(changed ? dating.release.releasedAt : dating.against.releasedAt),
    };
  });
}

/** The functions of `files` (paths relative to the release's folder) in the older release, as extract finds them. */
async function olderFunctions(folder: string, files: ReadonlySet<string>): Promise<FunctionRecord[]> {
  const parser = await loadPythonParser();
  const found: FunctionRecord[] = [];
  for (const file of [...files].sort()) {
    const path = join(folder, file);
    if (!existsSync(path)) continue;
    const outcome = parsePythonFile(parser, readFileSync(path), file);
    if (!outcome.ok) continue;
    found.push(...outcome.parsed.functions);
    outcome.parsed.tree.delete();
  }
  return found;
}
