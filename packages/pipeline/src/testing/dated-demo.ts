import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BodyHistoryRow, Catalog } from '@repocod/catalog';
import { git, openSdistArchive, readReleaseFolder } from '@repocod/runner';
import { blamedBodyRows, bodyHistoryKey } from '../candidates/body-dates.js';
import type { DatedAgainst } from '../candidates/dated-against.js';
import { releaseDiffDating } from '../candidates/dated-against.js';
import { releaseDiffRows } from '../candidates/release-diff-dates.js';
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

/** The demo's two releases as `dateDemoByReleaseDiff` makes them, and the rows it stored. */
export interface DemoReleaseDiff {
  readonly dated: DatedAgainst;
  readonly rows: BodyHistoryRow[];
}

/**
 * Test support: demo functions dated by the real release-diff code. The demo is a snapshot without history, as a
 * stand-in sdist is: its files are made two sdists of `demo-inventory` in `dir` (PKG-INFO, every file stamped with
 * the release's time, tar), 0.9 at `writtenAt` with the rewritten line as it was before, and 1.0 at `rewrittenAt` as
 * the demo has it. The functions are dated against 0.9 as `--dated-against demo=demo-inventory-0.9.tar.gz` would, and
 * the rows stored where `--changed-since` would have stored them for the demo's base commit.
 */
export async function dateDemoByReleaseDiff(
  catalog: Catalog,
  dir: string,
  dating: DemoDating,
): Promise<DemoReleaseDiff> {
  const older = demoSdist(dir, '0.9', dating.writtenAt, dating.rewritten, true);
  const newer = demoSdist(dir, '1.0', dating.rewrittenAt, dating.rewritten, false);
  const opened = openSdistArchive('demo', older, dir);
  const dated: DatedAgainst = {
    repository: 'demo',
    against: { ...opened, sha256: opened.sha256 as string },
    release: readReleaseFolder('demo', newer),
  };
  const functions = (await catalog.functions('demo')).filter((fn) => dating.qualnames.includes(fn.qualname));
  const rows = await releaseDiffRows(dated, functions);
  await catalog.saveBodyHistory(bodyHistoryKey('demo', dating.baseCommit, releaseDiffDating(dated)), rows);
  return { dated, rows };
}

/** A release of the demo as an sdist: its folder (returned for 1.0, the source) or its archive (for 0.9). */
function demoSdist(dir: string, version: string, at: string, line: RewrittenLine, archive: boolean): string {
  const build = join(dir, `sdist-${version}`);
  const root = join(build, `demo-inventory-${version}`);
  mkdirSync(build, { recursive: true });
  renameSync(copyDemo(build), root);
  if (archive) {
    const text = readFileSync(join(root, line.file), 'utf8');
    writeFileSync(join(root, line.file), text.replace(line.now, line.before));
  }
  writeFileSync(join(root, 'PKG-INFO'), `Metadata-Version: 2.1\nName: demo-inventory\nVersion: ${version}\n`);
  stampTree(root, new Date(at));
  if (!archive) return root;
  const file = join(dir, `demo_inventory-${version}.tar.gz`);
  execFileSync('tar', ['-czf', file, '-C', build, `demo-inventory-${version}`]);
  return file;
}

function stampTree(folder: string, at: Date): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) stampTree(path, at);
    else utimesSync(path, at, at);
  }
  utimesSync(folder, at, at);
}
