import type { LocalManifestEntry, RemoteManifestEntry } from './manifest.js';
import type { Field, ManifestDocument } from './manifest-document.js';
import type { EntryFields } from './manifest-field-row.js';

/** Where a repository comes from: the three fields (url, source, base_commit) that are checked together. */
export type Origin =
  | Pick<RemoteManifestEntry, 'url' | 'source' | 'baseCommit'>
  | Pick<LocalManifestEntry, 'url' | 'source' | 'baseCommit'>;

const SHA = /^[0-9a-fA-F]{40}$/;
/** https://..., ssh://..., git://..., file://... or scp-like git@host:owner/repo.git */
const GIT_URL = /^(?:(?:https?|ssh|git|file):\/\/\S+|[\w.-]+@[\w.-]+:\S+)$/;

/** Where the repository comes from: a url with its commit, or a local folder (commit optional). */
export function parseOrigin(document: ManifestDocument, entry: Field, fields: ReadonlyMap<string, Field>): Origin {
  const urlField = fields.get('url');
  const sourceField = fields.get('source');
  const commitField = fields.get('base_commit');
  if (urlField !== undefined && sourceField !== undefined) {
    document.fail(
      sourceField.line,
      entry.path,
      'has both url and source; give exactly one (url to clone, or source for a local folder)',
    );
  }
  let baseCommit: string | null = null;
  if (commitField !== undefined) {
    const parsed = document.string(commitField, 'a 40-character commit sha');
    if (!SHA.test(parsed.value)) {
      document.fail(
        parsed.line,
        parsed.path,
        `must be a 40-character commit sha (got ${JSON.stringify(parsed.value)})`,
      );
    }
    baseCommit = parsed.value.toLowerCase();
  }
  if (sourceField !== undefined) return { url: null, source: document.string(sourceField).value, baseCommit };
  if (urlField === undefined) {
    document.fail(entry.line, entry.path, 'needs a url (to clone) or a source (a local folder); give exactly one');
  }
  const url = document.string(urlField);
  if (!GIT_URL.test(url.value)) {
    document.fail(
      url.line,
      url.path,
      `must be a git URL such as https://github.com/owner/repo.git (got ${JSON.stringify(url.value)})`,
    );
  }
  if (baseCommit === null) {
    document.fail(
      entry.line,
      `${entry.path}.base_commit`,
      'is required when url is given (the 40-character sha of the commit to check out)',
    );
  }
  return { url: url.value, source: null, baseCommit };
}

/** The origin is checked once per entry, when its first row is read; the other two rows take the same result. */
const origins = new WeakMap<EntryFields, Origin>();

/** The entry's origin, for the rows of url, source and base_commit. */
export function originOf(entry: EntryFields): Origin {
  const known = origins.get(entry);
  if (known !== undefined) return known;
  const origin = parseOrigin(entry.document, entry.entry, entry.fields);
  origins.set(entry, origin);
  return origin;
}
