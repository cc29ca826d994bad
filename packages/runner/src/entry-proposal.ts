import { posix } from 'node:path';
import { RepocodError } from '@repocod/core';
import { deriveRecipeAt } from './derive-recipe-at.js';
import type { RecipeProposal } from './derive-recipe.js';
import { git, gitSucceeds } from './git.js';
import { PYTEST_CONFIG_FILES, proposeTestRoots, type TestRootsProposal } from './test-roots-proposal.js';

/**
 * A whole manifest entry proposed for a repository the manifest does not have yet (`repocod manifest add`): where it
 * comes from, its owner/name, the base commit, and what derive-recipe.ts and test-roots-proposal.ts read in its
 * project files at that commit. Nothing is checked out or installed here; the command checks the entry afterwards.
 */
export interface EntryProposal {
  readonly name: string;
  /** owner/name, and where it was read. */
  readonly repo: string;
  readonly repoFrom: string;
  readonly url: string | null;
  /** The local clone, as the entry names it. */
  readonly source: string | null;
  readonly packageRoot: string;
  readonly recipe: RecipeProposal;
  readonly testRoots: TestRootsProposal;
}

export interface EntryProposalOptions {
  readonly name: string;
  /** A clone holding the commit (the --source clone, or the runner's clone of the url). */
  readonly gitDir: string;
  readonly commit: string;
  readonly url: string | null;
  readonly source: string | null;
  readonly packageRoot: string;
  /** `owner` or `owner/name`, given by the curator; else read from the url or the clone's origin. */
  readonly owner?: string;
  readonly installedPythons?: readonly string[];
}

export async function proposeEntry(options: EntryProposalOptions): Promise<EntryProposal> {
  const { gitDir, commit, packageRoot } = options;
  const recipe = await deriveRecipeAt({
    name: options.name,
    gitDir,
    commit,
    packageRoot,
    manifestPython: null,
    ...(options.installedPythons === undefined ? {} : { installedPythons: options.installedPythons }),
  });
  const inRoot = (path: string): string => posix.normalize(posix.join(packageRoot, path));
  const texts = new Map<string, string>();
  for (const file of PYTEST_CONFIG_FILES) {
    if (await gitSucceeds(gitDir, ['cat-file', '-e', `${commit}:${inRoot(file)}`])) {
      texts.set(file, await git(gitDir, ['show', `${commit}:${inRoot(file)}`]));
    }
  }
  const tree = packageRoot === '.' ? commit : `${commit}:${inRoot('')}`.replace(/\/$/, '');
  const listed = await git(gitDir, ['ls-tree', '-d', '--name-only', tree]);
  const folders = listed.split('\n').filter((line) => line !== '');
  const { repo, repoFrom } = await repoName(options);
  return {
    name: options.name,
    repo,
    repoFrom,
    url: options.url,
    source: options.source,
    packageRoot,
    recipe,
    testRoots: proposeTestRoots(texts, folders),
  };
}

/** `owner/name` of a GitHub (or any host's) url: the last two path segments, `.git` left off. */
export function ownerAndName(url: string): string | null {
  const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.trim());
  return match === null ? null : `${match[1]}/${match[2]}`;
}

async function repoName(options: EntryProposalOptions): Promise<{ repo: string; repoFrom: string }> {
  const remote =
    options.url ??
    ((await gitSucceeds(options.gitDir, ['remote', 'get-url', 'origin']))
      ? (await git(options.gitDir, ['remote', 'get-url', 'origin'])).trim()
      : null);
  const fromRemote = remote === null ? null : ownerAndName(remote);
  if (options.owner !== undefined) {
    const repo = options.owner.includes('/')
      ? options.owner
      : `${options.owner}/${fromRemote?.split('/')[1] ?? options.name}`;
    return { repo, repoFrom: '--owner' };
  }
  if (fromRemote !== null) {
    return { repo: fromRemote, repoFrom: options.url === null ? `the clone's origin ${remote}` : 'the url' };
  }
  throw new RepocodError(
    'usage',
    [
      `${options.name}: the clone ${options.gitDir} has no origin remote to read its owner/name from (task ids are`,
      '`owner__name-…`, as on the Hub and in SWE-bench); give --owner OWNER (or OWNER/NAME)',
    ].join(' '),
  );
}

/** The entry as manifest YAML (two-space list item under `repositories:`), with how each part was decided. */
export function entryYaml(proposal: EntryProposal): string {
  const { recipe } = proposal;
  const quote = (text: string): string =>
    /^[A-Za-z0-9_.\-/=]+$/.test(text) && !/^\d/.test(text) ? text : JSON.stringify(text);
  const list = (items: readonly string[]): string => `[${items.map(quote).join(', ')}]`;
  const steps = recipe.install.map((step) =>
    typeof step === 'string' ? `      - ${JSON.stringify(step)}` : `      - pip: ${list(step.pip)}`,
  );
  return [
    `  # ${proposal.name}: added by \`repocod manifest add\` at ${recipe.commit.slice(0, 12)} (${recipe.committedAt});`,
    `  # uv resolves versions as of ${recipe.resolvedAsOf}. repo from ${proposal.repoFrom}.`,
    ...recipe.reasons.map((reason) => `  #   ${reason}`),
    `  #   test_roots: ${proposal.testRoots.why}`,
    ...(recipe.undecided.length === 0
      ? []
      : ['  # for the curator:', ...recipe.undecided.map((line) => `  #   - ${line}`)]),
    `  - name: ${proposal.name}`,
    proposal.url === null ? `    source: ${quote(proposal.source ?? '')}` : `    url: ${proposal.url}`,
    `    repo: ${proposal.repo}`,
    `    base_commit: ${recipe.commit}`,
    recipe.python === null
      ? '    python: "3.11" # undecided (see above): choose one'
      : `    python: "${recipe.python}"`,
    `    package_root: ${quote(proposal.packageRoot)}`,
    '    install:',
    ...steps,
    `    test_roots: ${list(proposal.testRoots.roots)}`,
    '    pytest_args: ["-p", "no:cacheprovider"]',
    '    deselect: []',
    '    env: {}',
    '    timeout: 600',
    '',
  ].join('\n');
}
