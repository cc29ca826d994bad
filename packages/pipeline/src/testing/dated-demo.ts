import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BodyHistoryRow, Catalog } from '@repocod/catalog';
import { git } from '@repocod/runner';
import { blamedBodyRows, bodyHistoryKey } from '../candidates/body-dates.js';
import { copyDemo } from './test-support.js';

/** A line of a demo file, as it is and as it was written before its rewrite. */
export interface RewrittenLine {
  readonly file: string;
  readonly now: string;
  readonly before: string;
}

export interface DemoDating {
  /** The demo's base commit in the catalog: the snapshot its functions and tasks were made at. */
  readonly baseCommit: string;
  /** The functions to date, by qualname (the others stay undated). */
  readonly qualnames: readonly string[];
  /** When the demo was first written, ISO 8601 with a zone. */
  readonly writtenAt: string;
  /** When `rewritten` was changed to what it is now. */
  readonly rewrittenAt: string;
  readonly rewritten: RewrittenLine;
}

/**
 * Test support: demo functions dated by the real blame code. The demo is a snapshot without history, so a copy of
 * its files is committed twice in a git repository of its own (in `dir`): at `writtenAt` with the rewritten line as
 * it was before, then at `rewrittenAt` as the demo has it. Blamed at the second commit, whose files are the
 * snapshot's, a function whose body holds that line is dated `rewrittenAt` and the others `writtenAt`; the rows are
 * stored where `--changed-since` would have stored them for the demo's base commit.
 */
export async function dateDemoBodies(catalog: Catalog, dir: string, dating: DemoDating): Promise<BodyHistoryRow[]> {
  const root = copyDemo(dir);
  const { file, now, before } = dating.rewritten;
  const text = readFileSync(join(root, file), 'utf8');
  if (!text.includes(now)) throw new Error(`${file} has no line ${now}`);
  writeFileSync(join(root, file), text.replace(now, before));
  await commitAll(root, 'written', dating.writtenAt, true);
  writeFileSync(join(root, file), text);
  const head = await commitAll(root, 'rewritten', dating.rewrittenAt, false);
  const functions = (await catalog.functions('demo')).filter((fn) => dating.qualnames.includes(fn.qualname));
  const rows = await blamedBodyRows(root, head, functions);
  await catalog.saveBodyHistory(bodyHistoryKey('demo', dating.baseCommit), rows);
  return rows;
}

async function commitAll(root: string, message: string, date: string, first: boolean): Promise<string> {
  if (first) await git(root, ['init', '--quiet', '--initial-branch=main']);
  await git(root, ['add', '--all']);
  const who = { name: 'demo', email: 'demo@localhost' };
  await git(root, ['commit', '--quiet', '--no-gpg-sign', '-m', message], {
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_COMMITTER_DATE: date,
  });
  return git(root, ['rev-parse', 'HEAD']);
}
