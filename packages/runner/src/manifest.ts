import { readFileSync } from 'node:fs';
import type { BaselineReruns, LevelMode } from '@repocod/core';
import { DEFAULT_REPEAT, RepocodError } from '@repocod/core';
import { LineCounter, parseDocument } from 'yaml';
import type { InstallStep } from './install-step.js';
import { validateManifest } from './manifest-schema.js';
import type { RecipeVariant } from './recipe-variant.js';

export { DEFAULT_TIMEOUT_SECONDS } from './manifest-fields.js';

/** A test the runner leaves out of every run of its repository, and why (kept for the record). */
export interface DeselectedTest {
  /** A pytest node id relative to the package root: `tests/test_x.py::TestY::test_z[param]`. */
  readonly id: string;
  readonly reason: string;
}

/** A file of the base commit the clone may lack, left out of every working copy (see missing-blobs.ts). */
export interface AbsentFile {
  /** Its path in the repository, relative to the root: `js/lib/mimeExtension.js`. */
  readonly path: string;
  /** Why no test needs it (a build artefact of another language, a file only a packaging step reads). */
  readonly why: string;
}

interface ManifestEntryFields {
  /** REPOCOD's name for the repository (`plotly.py`, `scikit-learn`, ...). */
  readonly name: string;
  /** Interpreter version the environment is made with, `3.11` or `3.11.9`. */
  /** GitHub's owner/name (`repo:`); else read from url (taskRepoName). */
  readonly repo?: string;
  readonly python: string;
  /** Folder of the Python project relative to the repository root; pytest runs there. */
  readonly packageRoot: string;
  /** What to install, in order, at the repository root (see InstallStep). */
  readonly install: readonly InstallStep[];
  /**
   * The moment package versions are resolved as of: an ISO 8601 date or timestamp, `none` for no
   * limit, or undefined for the default (the base commit's committer timestamp; see resolutionDate).
   */
  readonly excludeNewer?: string;
  /**
   * A compiled project's in-place build, a shell command run at the package root of a working copy
   * (`python setup.py build_ext --inplace`). Worktrees share the environment's built extensions (see
   * build-artefacts.ts); this runs only when a job's patch changes a compiled source.
   */
  readonly buildInPlace?: string;
  /**
   * Distributions on the package index (`plotly==5.24.1`) that ship files a size-limited clone lacks,
   * byte for byte; a file is taken from them only when its git blob id matches (see missing-blobs.ts).
   */
  readonly blobsFrom?: readonly string[];
  /**
   * Files of the base commit that the clone lacks and no distribution ships, left out of the working copies (a
   * sparse checkout) instead of stopping the checkout; each says why no test needs it (see missing-blobs.ts).
   */
  readonly absentFiles?: readonly AbsentFile[];
  /**
   * The top-level packages a worktree must import from itself (see worktree-imports.ts); default: every
   * package folder of the project. For a project whose folder also holds development tools that the
   * environment does not install (plotly.py's `codegen` needs `inflect`).
   */
  readonly importCheck?: readonly string[];
  /** Folders or files given to pytest, relative to the package root. */
  readonly testRoots: readonly string[];
  readonly pytestArgs: readonly string[];
  readonly deselect: readonly DeselectedTest[];
  /** Extra environment variables for installs and test runs. */
  readonly env: Readonly<Record<string, string>>;
  /** Seconds one job may take before its process group is killed. */
  readonly timeoutSeconds: number;
  /**
   * The manifest's `levels`: the context-level mode its tasks are labelled with unless `--levels` says
   * otherwise (REPOCOD's manifest: repocod-v1). Absent: DEFAULT_LEVEL_MODE.
   */
  readonly levels?: LevelMode;
  /**
   * How many times mining runs the whole suite at the base commit (the baseline's k), when it must
   * differ from the command's --repeat: a suite that takes hours runs once, and validation then runs
   * each selected task's gold state k times itself (see baselineRunsOf).
   */
  readonly baselineRuns?: number;
  /**
   * What the baseline's runs after the first run (BASELINE_RERUNS): the whole suite (absent, REPOCOD's way) or only
   * the tests that ended in a FAIL_TO_PASS. Part of the mining key when it is `relevant`.
   */
  readonly baselineReruns?: BaselineReruns;
  /**
   * The k of validation's gold check for this repository when the command gives no --repeat: 1 where the
   * baseline ran once and k gold runs of thousands of tests would take hours (validation then takes the gold
   * answer from that one baseline run). Part of each validation's key, so a rebuild with the same manifest
   * finds the same verdicts.
   */
  readonly validateRuns?: number;
  /**
   * A source distribution standing in for the commit where the clone cannot be had (scikit-learn's
   * snapshot is over the fetch limit here): its URL and sha256, checked when `repocod rebuild` fetches it.
   */
  readonly standIn?: StandIn;
  /**
   * The recipe of other eras (recipe-variant.ts): chosen by the base commit once it is known (at the checkout),
   * and gone from the entry the checkout's jobs see.
   */
  readonly variants?: readonly RecipeVariant[];
  /**
   * Set by --at when it moved the entry off the commit the manifest names (null: a folder's current state): the
   * entry is then another era of the repository, kept apart in a catalog (catalog-name.ts).
   */
  readonly manifestCommit?: string | null;
}

/** See ManifestEntryFields.standIn. */
export interface StandIn {
  readonly sdist: string;
  readonly sha256: string;
  readonly why: string;
}

/** Validation's k for a repository: the command's --repeat, else the manifest's validate_runs, else DEFAULT_REPEAT. */
export function validateRunsOf(entry: Pick<ManifestEntryFields, 'validateRuns'>, repeat: number | undefined): number {
  return repeat ?? entry.validateRuns ?? DEFAULT_REPEAT;
}

/**
 * The baseline's k for a repository: the manifest's baseline_runs, else the command's --repeat. Mining
 * keys, the tasks stage's lookup of mining and validation's gold evidence all go through it.
 */
/** The baseline's reruns for a repository: the manifest's baseline_reruns, else the whole suite. */
export function baselineRerunsOf(entry: Pick<ManifestEntryFields, 'baselineReruns'>): BaselineReruns {
  return entry.baselineReruns ?? 'suite';
}

export function baselineRunsOf(entry: Pick<ManifestEntryFields, 'baselineRuns'>, repeat: number): number {
  return entry.baselineRuns ?? repeat;
}

/** A repository cloned from a URL: the commit is what makes it reproducible, so it is required. */
export interface RemoteManifestEntry extends ManifestEntryFields {
  readonly url: string;
  readonly source: null;
  readonly baseCommit: string;
}

/**
 * A repository taken from a local folder (relative paths are relative to the project root). Without a
 * commit the runner makes the folder a git repository and uses its current state.
 */
export interface LocalManifestEntry extends ManifestEntryFields {
  readonly url: null;
  readonly source: string;
  readonly baseCommit: string | null;
  /**
   * The commit a folder that is not a git repository stands in for (a release's sdist given with
   * --source; see stand-in-source.ts): the tasks' base commit is then the folder's snapshot.
   */
  readonly standInFor?: string;
  /**
   * The release date of that folder (its newest file, UTC): the era its recipe variants are chosen by, since its
   * snapshot commit carries the runner's fixed date (see recipe-at-checkout.ts).
   */
  readonly standInReleasedAt?: string;
  /** The manifest's url when --source put a local clone in its place: still the repository's name. */
  readonly upstream?: string;
}

/** One repository of a manifest: where it comes from, how its environment is made, how it is tested. */
export type ManifestEntry = RemoteManifestEntry | LocalManifestEntry;

/** The same thing under the name the runner's callers use for "the manifest of one repository". */
export type RepositoryManifest = ManifestEntry;

export interface Manifest {
  /** The file it was read from, as given: error messages name it. */
  readonly file: string;
  readonly repositories: readonly ManifestEntry[];
}

/** Reads and validates a manifest file; every problem is a RepocodError naming the file and line. */
export function loadManifest(file: string): Manifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new RepocodError(
        'path-not-found',
        `${file}: manifest not found (check the path, e.g. datasets/repocod/manifest.yaml)`,
        {
          cause: error,
        },
      );
    }
    if (code === 'EISDIR') {
      throw new RepocodError(
        'file-unreadable',
        `${file}: is a folder; give the manifest file inside it (e.g. ${file}/manifest.yaml)`,
        {
          cause: error,
        },
      );
    }
    throw new RepocodError('file-unreadable', `${file}: cannot read the manifest (${String(error)})`, { cause: error });
  }
  return parseManifest(text, file);
}

/** Validates manifest text; `file` is only used to name the source in error messages. */
export function parseManifest(text: string, file: string): Manifest {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntaxError = doc.errors[0];
  if (syntaxError !== undefined) {
    const line = lineCounter.linePos(syntaxError.pos[0]).line;
    throw new RepocodError(
      'config-invalid',
      `${file}:${line}: YAML syntax error: ${syntaxError.message} (fix the YAML at that line)`,
    );
  }
  return validateManifest(doc, { file, text, lineCounter });
}
