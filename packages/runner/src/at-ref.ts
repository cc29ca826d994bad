import { AtError } from './at-error.js';
import { parseAtSpec } from './at-spec.js';
import { commitTime, git } from './git.js';
import { editDistance } from './manifest-suggest.js';

/** The commit a spec names, and what it meant, for the line that tells the user. */
export interface ResolvedAt {
  /** The full 40-character sha. */
  readonly commit: string;
  /** Its committer date, UTC: `2024-02-03T04:05:06Z`. */
  readonly committedAt: string;
  /** What the spec meant: `tag 2.0.0`, `HEAD of main`, `the last commit on main before 2024-03-01 (UTC)`. */
  readonly describedAs: string;
}

export interface ResolveAtOptions {
  /** Names the spec in errors, as the user wrote it: `--at flask=v9` (default: the spec). */
  readonly label?: string;
  /**
   * The default branch, which `HEAD` and a day are read on: the git dir's own `HEAD` (default: a local
   * clone's current branch), or `refs/remotes/origin/HEAD` in a clone of a url (the remote's default branch
   * as of the last fetch; our clones are checked out detached, so their own HEAD says nothing).
   */
  readonly mainline?: string;
  /** The moment a day must have begun by; default: now. */
  readonly now?: Date;
}

/** How many near tags and branches an unknown ref's error lists. */
const NEAR_NAMES = 5;

/**
 * The commit `spec` names in the repository at `gitDir` (a working copy or a bare clone), read under the rules
 * of at-spec.ts. A day walks the default branch by first parents only: a commit merged from a side branch was
 * on the default branch from its merge on, whatever its own date says. A revision is looked up as git reads it,
 * then as a branch of `origin` (a clone of a url has its branches there). Every failure is an AtError.
 */
export async function resolveAt(gitDir: string, spec: string, options: ResolveAtOptions = {}): Promise<ResolvedAt> {
  const label = options.label ?? spec;
  const mainline = options.mainline ?? 'HEAD';
  const parsed = parseAtSpec(spec, label);
  if (parsed.kind === 'head') {
    const commit = await commitOf(gitDir, mainline);
    if (commit === null) throw notFound(label, spec, `${gitDir} has no ${mainline} (an empty repository?)`, []);
    return {
      commit,
      committedAt: await committedAt(gitDir, commit),
      describedAs: `HEAD of ${await nameOf(gitDir, mainline)}`,
    };
  }
  if (parsed.kind === 'day') {
    if (parsed.startsAt > (options.now ?? new Date()).getTime()) {
      throw new AtError({
        code: 'date-in-future',
        label,
        spec,
        detail:
          `${parsed.day} has not begun yet (UTC), so the last commit before it is not known; give a day up to ` +
          `today, or HEAD for the newest commit`,
      });
    }
    // git compares whole seconds and --before keeps a commit dated at the bound: one second earlier is "before".
    const bound = `--before=@${Math.floor(parsed.startsAt / 1000) - 1}`;
    const commit = await git(gitDir, ['rev-list', '-1', '--first-parent', bound, mainline, '--']);
    const branch = await nameOf(gitDir, mainline);
    if (commit === '') throw await beforeHistory(gitDir, mainline, branch, label, spec);
    return {
      commit,
      committedAt: await committedAt(gitDir, commit),
      describedAs: `the last commit on ${branch} before ${parsed.day} (UTC)`,
    };
  }
  const { revision } = parsed;
  const direct = await commitOf(gitDir, revision);
  const viaOrigin = direct === null ? await commitOf(gitDir, `refs/remotes/origin/${revision}`) : null;
  const commit = direct ?? viaOrigin;
  if (commit === null) {
    const near = await nearNames(gitDir, revision);
    const listed = near.length === 0 ? '' : ` (near: ${near.join(', ')})`;
    throw notFound(
      label,
      spec,
      `no commit, tag or branch ${JSON.stringify(revision)} in ${gitDir}${listed}; check the spelling, fetch the ` +
        `clone, or give a sha, HEAD or a day as YYYY-MM-DD`,
      near,
    );
  }
  const describedAs = viaOrigin !== null ? `branch origin/${revision}` : await revisionKind(gitDir, revision, commit);
  return { commit, committedAt: await committedAt(gitDir, commit), describedAs };
}

/** The commit a revision names, or null when it names none (unknown, ambiguous, or not a commit). */
async function commitOf(gitDir: string, revision: string): Promise<string | null> {
  try {
    return await git(gitDir, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
  } catch {
    return null;
  }
}

async function committedAt(gitDir: string, commit: string): Promise<string> {
  const iso = await commitTime(gitDir, commit);
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `main`, `origin/main`, or `HEAD` for a detached head. */
async function nameOf(gitDir: string, mainline: string): Promise<string> {
  return git(gitDir, ['rev-parse', '--abbrev-ref', mainline]).catch(() => mainline);
}

async function revisionKind(gitDir: string, revision: string, commit: string): Promise<string> {
  const refs = await git(gitDir, [
    'for-each-ref',
    '--format=%(refname)',
    `refs/tags/${revision}`,
    `refs/heads/${revision}`,
  ]);
  if (refs.split('\n').includes(`refs/tags/${revision}`)) return `tag ${revision}`;
  if (refs.split('\n').includes(`refs/heads/${revision}`)) return `branch ${revision}`;
  if (/^[0-9a-f]{4,40}$/i.test(revision) && commit.startsWith(revision.toLowerCase())) return `commit ${revision}`;
  return `revision ${revision}`;
}

/** The tags and branches spelled nearest to `revision` (edit distance, then name), at most NEAR_NAMES. */
async function nearNames(gitDir: string, revision: string): Promise<string[]> {
  const listed = await git(gitDir, [
    'for-each-ref',
    '--format=%(refname:short)',
    'refs/tags',
    'refs/heads',
    'refs/remotes/origin',
  ]).catch(() => '');
  const names = [...new Set(listed.split('\n'))].filter((name) => name !== '' && !name.endsWith('/HEAD'));
  const limit = Math.max(2, Math.floor(revision.length / 2));
  return names
    .map((name) => ({ name, distance: editDistance(revision.toLowerCase(), name.toLowerCase()) }))
    .filter((near) => near.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, NEAR_NAMES)
    .map((near) => near.name);
}

async function beforeHistory(
  gitDir: string,
  mainline: string,
  branch: string,
  label: string,
  spec: string,
): Promise<AtError> {
  const roots = await git(gitDir, ['log', '--max-parents=0', '--format=%ct', mainline, '--']);
  const seconds = Math.min(...roots.split('\n').map(Number));
  const first = Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'unknown';
  return new AtError({
    code: 'date-before-history',
    label,
    spec,
    detail: `${branch} has no commit before ${spec} (its first commit is dated ${first}); give a later day`,
  });
}

function notFound(label: string, spec: string, detail: string, near: readonly string[]): AtError {
  return new AtError({ code: 'ref-not-found', label, spec, detail, near });
}
