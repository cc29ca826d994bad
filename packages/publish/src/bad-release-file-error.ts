import { RepocodError } from '@repocod/core';

/*
 * A file of a release that cannot be read as one: a usage error (exit 2), since the fix is the user's (another
 * file, the release downloaded or published again), never a stack trace. Every command that reads a release
 * (evaluate, prompts, reference add, report --diff, publish over an earlier version) throws it where it reads.
 */

/** What is wrong with the file. */
export type BadReleaseFileProblem =
  /** Not there (a version the card lists, or the file named). */
  | 'missing-file'
  /** parquet-wasm cannot read it: truncated, a corrupt footer, empty, or not Parquet at all. */
  | 'corrupt-parquet'
  /** The card (README.md) has no YAML front matter, or front matter that is not YAML. */
  | 'bad-card'
  /** The card lists no config for the version asked for. */
  | 'missing-config'
  /** Its rows lack the columns the reader needs: rows of another schema. */
  | 'wrong-schema';

const WHAT: Readonly<Record<BadReleaseFileProblem, string>> = {
  'missing-file': 'missing',
  'corrupt-parquet': 'not a readable Parquet file',
  'bad-card': 'not a release card',
  'missing-config': 'no config for the version asked for',
  'wrong-schema': 'rows of another schema',
};

/**
 * What to do about a damaged file of a release folder: get the release again. An empty folder given to
 * `publish --push --dry-run` is filled from the Hub and nothing is uploaded.
 */
export const GET_RELEASE_AGAIN = [
  'download the release again into an empty folder (`repocod publish --push ORG/NAME --out DIR --dry-run` fills',
  'DIR from the Hub and uploads nothing), or copy again the folder `repocod publish --out` wrote',
].join(' ');

export class BadReleaseFileError extends RepocodError {
  /** The file (or, for a card on the Hub, its url). */
  readonly file: string;
  readonly problem: BadReleaseFileProblem;
  /** What was found: the reader's own message, the columns there and missing, the versions listed … */
  readonly detail: string;
  /** What to do, as the message ends. */
  readonly fix: string;

  constructor(file: string, problem: BadReleaseFileProblem, detail: string, fix: string = GET_RELEASE_AGAIN) {
    super('usage', [`${file}: ${WHAT[problem]} (${detail});`, fix].join(' '));
    this.name = 'BadReleaseFileError';
    this.file = file;
    this.problem = problem;
    this.detail = detail;
    this.fix = fix;
  }
}
