import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * TEST SUPPORT, not for production: an in-memory stand-in for the Hugging Face Hub on 127.0.0.1,
 * speaking the HTTP that @huggingface/hub's repoExists, createRepo, commit/uploadFiles (basic LFS
 * transfer), listFiles, fileDownloadInfo and downloadFile send, so that tests of `repocod publish`
 * run the real library against a real socket instead of mocking it. It holds dataset repositories
 * only, one branch (`main`) plus every commit's snapshot, and records what arrived so tests can
 * assert paths, bytes and commit messages.
 */

/** The kinds of request the loopback Hub answers; `failNext` names one of them. */
export type LoopbackEndpoint =
  | 'repo-info'
  | 'create-repo'
  | 'preupload'
  | 'lfs-batch'
  | 'lfs-upload'
  | 'commit'
  | 'tree'
  | 'resolve';

export interface LoopbackRequest {
  readonly method: string;
  /** The path as sent, percent-encoding kept, without the query. */
  readonly path: string;
  readonly query: string;
  /** null for a request no endpoint matched (answered 404): a call the loopback Hub does not implement. */
  readonly endpoint: LoopbackEndpoint | null;
  readonly status: number;
}

export interface LoopbackFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Stored through LFS (the commit named it as an lfsFile), as the Hub stores Parquet. */
  readonly lfs: boolean;
  /** The git blob id: of the bytes, or of the LFS pointer for an LFS file. */
  readonly oid: string;
  readonly sha256: string;
}

export interface LoopbackCommit {
  readonly repo: string;
  readonly oid: string;
  readonly parent: string | null;
  readonly title: string;
  readonly description: string;
  /** The files this commit added or replaced, with the bytes that arrived. */
  readonly files: readonly LoopbackFile[];
  readonly deleted: readonly string[];
}

export interface LoopbackHub {
  /** The hubUrl to give the library. */
  readonly url: string;
  /** The one token the loopback Hub accepts (`Authorization: Bearer …`). */
  readonly token: string;
  /** Every request in the order it arrived. */
  requests(): readonly LoopbackRequest[];
  /** Every commit, of one repository (`ORG/NAME`) or of all, oldest first. */
  commits(repo?: string): readonly LoopbackCommit[];
  /** The files on `main` of a repository, or undefined when it does not exist. */
  files(repo: string): ReadonlyMap<string, LoopbackFile> | undefined;
  repoIds(): readonly string[];
  /** Creates a repository directly (as if made earlier on the Hub), with an initial commit when given files. */
  addRepo(
    repo: string,
    options?: { readonly private?: boolean; readonly files?: Readonly<Record<string, string | Uint8Array>> },
  ): void;
  /**
   * The next request of that kind (and, given `when`, for which `when` holds) gets `status` and the
   * Hub's JSON error body `{ error: message }`; failures queue up in the order they were asked for.
   */
  failNext(
    endpoint: LoopbackEndpoint,
    status: number,
    message: string,
    when?: (request: FailureCandidate) => boolean,
  ): void;
  close(): Promise<void>;
}

/** What `failNext`'s condition sees of a request. */
export interface FailureCandidate {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

export interface LoopbackHubOptions {
  /** Defaults to a fresh random `hf_loopback_…` token. */
  readonly token?: string;
}

interface RepoState {
  readonly id: string;
  readonly private: boolean;
  /** LFS objects by sha256, what the batch and PUT endpoints fill and lfsFile entries point at. */
  readonly lfs: Map<string, Uint8Array>;
  readonly snapshots: Map<string, ReadonlyMap<string, LoopbackFile>>;
  head: ReadonlyMap<string, LoopbackFile>;
  headOid: string | null;
}

interface Reply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string | object;
}

/** A refusal as the Hub sends it: a status, a JSON `{ error }` and, for missing things, X-Error-Code. */
class HubRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode?: string,
  ) {
    super(message);
  }
}

interface Route {
  readonly endpoint: LoopbackEndpoint;
  readonly method: readonly string[];
  readonly pattern: RegExp;
}

const ROUTES: readonly Route[] = [
  { endpoint: 'repo-info', method: ['GET'], pattern: /^\/api\/datasets\/([^/]+)\/([^/]+)$/ },
  { endpoint: 'create-repo', method: ['POST'], pattern: /^\/api\/repos\/create$/ },
  { endpoint: 'preupload', method: ['POST'], pattern: /^\/api\/datasets\/([^/]+)\/([^/]+)\/preupload\/([^/]+)$/ },
  {
    endpoint: 'lfs-batch',
    method: ['POST'],
    pattern: /^\/datasets\/([^/]+)\/([^/]+)\.git\/info\/lfs\/objects\/batch$/,
  },
  { endpoint: 'lfs-upload', method: ['PUT'], pattern: /^\/lfs-upload\/([0-9a-f]+)$/ },
  { endpoint: 'commit', method: ['POST'], pattern: /^\/api\/datasets\/([^/]+)\/([^/]+)\/commit\/([^/]+)$/ },
  { endpoint: 'tree', method: ['GET'], pattern: /^\/api\/datasets\/([^/]+)\/([^/]+)\/tree\/([^/]+)(?:\/(.*))?$/ },
  { endpoint: 'resolve', method: ['GET', 'HEAD'], pattern: /^\/datasets\/([^/]+)\/([^/]+)\/resolve\/([^/]+)\/(.+)$/ },
];

/** The Hub keeps files above 10 MB in LFS whatever their name; Parquet always. */
const LFS_THRESHOLD = 10 * 1024 * 1024;

/** Starts the loopback Hub on 127.0.0.1 on a free port. */
export async function startLoopbackHub(options: LoopbackHubOptions = {}): Promise<LoopbackHub> {
  const token = options.token ?? `hf_loopback_${randomBytes(12).toString('hex')}`;
  const repos = new Map<string, RepoState>();
  const commits: LoopbackCommit[] = [];
  const requests: LoopbackRequest[] = [];
  const failures: {
    endpoint: LoopbackEndpoint;
    status: number;
    message: string;
    when: (request: FailureCandidate) => boolean;
  }[] = [];
  /** Upload tickets: the href of a basic LFS upload is its own credential, like a presigned S3 URL. */
  const tickets = new Map<string, { repo: RepoState; oid: string; size: number }>();
  let url = '';

  const newRepo = (id: string, isPrivate: boolean): RepoState => {
    const repo: RepoState = {
      id,
      private: isPrivate,
      lfs: new Map(),
      snapshots: new Map(),
      head: new Map(),
      headOid: null,
    };
    repos.set(id, repo);
    return repo;
  };

  const applyCommit = (
    repo: RepoState,
    title: string,
    description: string,
    files: readonly LoopbackFile[],
    deleted: readonly string[],
  ): LoopbackCommit => {
    const next = new Map(repo.head);
    for (const path of deleted) next.delete(path);
    for (const file of files) next.set(file.path, file);
    const oid = createHash('sha1')
      .update(
        JSON.stringify([repo.headOid, title, description, [...next.values()].map((file) => [file.path, file.oid])]),
      )
      .update(randomBytes(8))
      .digest('hex');
    const commit: LoopbackCommit = { repo: repo.id, oid, parent: repo.headOid, title, description, files, deleted };
    repo.snapshots.set(oid, next);
    repo.head = next;
    repo.headOid = oid;
    commits.push(commit);
    return commit;
  };

  const authorize = (request: IncomingMessage, access: 'read' | 'write', repo: RepoState | undefined): void => {
    const header = request.headers.authorization;
    if (header !== undefined && header !== `Bearer ${token}`)
      throw new HubRefusal(401, 'Invalid credentials in Authorization header');
    if (header === undefined && (access === 'write' || repo?.private === true))
      throw new HubRefusal(401, 'You must be authenticated to access this endpoint');
  };

  const existingRepo = (org: string | undefined, name: string | undefined): RepoState => {
    const repo = repos.get(`${decode(org)}/${decode(name)}`);
    if (repo === undefined) throw new HubRefusal(404, 'Repository not found', 'RepoNotFound');
    return repo;
  };

  const snapshot = (
    repo: RepoState,
    revision: string,
  ): { oid: string | null; files: ReadonlyMap<string, LoopbackFile> } => {
    if (revision === 'main') return { oid: repo.headOid, files: repo.head };
    const files = repo.snapshots.get(revision);
    if (files === undefined) throw new HubRefusal(404, `Invalid rev id: ${revision}`, 'RevisionNotFound');
    return { oid: revision, files };
  };

  const onlyMain = (revision: string): void => {
    if (revision !== 'main')
      throw new HubRefusal(404, `the loopback Hub has one branch, main, not ${revision}`, 'RevisionNotFound');
  };

  const handlers: Record<
    LoopbackEndpoint,
    (request: IncomingMessage, groups: readonly (string | undefined)[], body: Buffer, query: URLSearchParams) => Reply
  > = {
    'repo-info': (request, [org, name]) => {
      const repo = existingRepo(org, name);
      authorize(request, 'read', repo);
      return { status: 200, body: { id: repo.id, private: repo.private, sha: repo.headOid, likes: 0 } };
    },

    'create-repo': (request, _groups, body) => {
      authorize(request, 'write', undefined);
      const payload = jsonObject(body);
      const name = payload.name;
      const organization = payload.organization;
      if (payload.type !== 'dataset')
        throw new HubRefusal(400, `the loopback Hub holds datasets only, not type ${String(payload.type)}`);
      if (typeof name !== 'string' || typeof organization !== 'string')
        throw new HubRefusal(400, 'name and organization are required');
      const id = `${organization}/${name}`;
      if (repos.has(id)) throw new HubRefusal(409, 'You already created this dataset repo');
      newRepo(id, payload.visibility === 'private' || payload.private === true);
      return { status: 200, body: { url: `${url}/datasets/${id}`, name: id, id: `loopback-${id}` } };
    },

    preupload: (request, [org, name, revision], body) => {
      const repo = existingRepo(org, name);
      authorize(request, 'write', repo);
      onlyMain(decode(revision));
      const files = arrayField(jsonObject(body), 'files').map((item) => {
        const file = objectOf(item, 'files[]');
        const path = stringField(file, 'path');
        const size = file.size;
        const lfs = path.endsWith('.parquet') || (typeof size === 'number' && size > LFS_THRESHOLD);
        return { path, uploadMode: lfs ? 'lfs' : 'regular', shouldIgnore: false };
      });
      return { status: 200, body: { files, commitOid: repo.headOid } };
    },

    'lfs-batch': (request, [org, name], body) => {
      const repo = existingRepo(org, name);
      authorize(request, 'write', repo);
      const payload = jsonObject(body);
      if (payload.operation !== 'upload')
        throw new HubRefusal(
          422,
          `the loopback Hub implements the upload operation only, not ${String(payload.operation)}`,
        );
      const transfers = payload.transfers;
      if (Array.isArray(transfers) && !transfers.includes('basic'))
        throw new HubRefusal(422, 'the loopback Hub offers the basic transfer only');
      const requested = new Map<string, number>();
      for (const item of arrayField(payload, 'objects')) {
        const object = objectOf(item, 'objects[]');
        const oid = stringField(object, 'oid');
        const size = object.size;
        if (!/^[0-9a-f]{64}$/.test(oid) || typeof size !== 'number')
          throw new HubRefusal(422, 'each object needs a sha256 oid and a size');
        // Two files with the same bytes (data/ and the newest version) are one object, uploaded once.
        requested.set(oid, size);
      }
      const objects = [...requested].map(([oid, size]) => {
        if (repo.lfs.has(oid)) return { oid, size };
        const ticket = randomBytes(16).toString('hex');
        tickets.set(ticket, { repo, oid, size });
        return {
          oid,
          size,
          authenticated: true,
          actions: { upload: { href: `${url}/lfs-upload/${ticket}`, expires_in: 3600 } },
        };
      });
      return {
        status: 200,
        headers: { 'Content-Type': 'application/vnd.git-lfs+json' },
        body: { transfer: 'basic', objects },
      };
    },

    'lfs-upload': (_request, [ticket], body) => {
      const upload = tickets.get(ticket ?? '');
      if (upload === undefined) throw new HubRefusal(403, 'unknown or already used upload URL');
      tickets.delete(ticket ?? '');
      if (body.byteLength !== upload.size)
        throw new HubRefusal(400, `received ${body.byteLength} bytes for an object of ${upload.size}`);
      const sha256 = createHash('sha256').update(body).digest('hex');
      if (sha256 !== upload.oid)
        throw new HubRefusal(400, `the sha256 of the bytes is ${sha256}, not the oid ${upload.oid}`);
      upload.repo.lfs.set(upload.oid, new Uint8Array(body));
      return { status: 200, headers: { ETag: `"${sha256}"` } };
    },

    commit: (request, [org, name, revision], body) => {
      const repo = existingRepo(org, name);
      authorize(request, 'write', repo);
      onlyMain(decode(revision));
      if (!(request.headers['content-type'] ?? '').startsWith('application/x-ndjson'))
        throw new HubRefusal(415, 'the loopback Hub takes commits as application/x-ndjson');
      const lines = body
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      const [first, ...operations] = lines.map((line) => {
        const entry = objectOf(parseJson(line), 'line');
        return { key: stringField(entry, 'key'), value: objectOf(entry.value, 'value') };
      });
      if (first?.key !== 'header') throw new HubRefusal(400, 'the first line of a commit must be its header');
      const title = stringField(first.value, 'summary');
      if (title.trim() === '') throw new HubRefusal(400, 'the commit summary is empty');
      const description = typeof first.value.description === 'string' ? first.value.description : '';
      const parent = first.value.parentCommit;
      if (typeof parent === 'string' && parent !== repo.headOid)
        throw new HubRefusal(412, `parentCommit ${parent} is not the head of main (${String(repo.headOid)})`);
      // Everything is checked before anything is applied: a refused commit leaves the repository as it was.
      const files: LoopbackFile[] = [];
      const deleted: string[] = [];
      const seen = new Set<string>();
      for (const { key, value } of operations) {
        const path = stringField(value, 'path');
        if (!isRepoPath(path)) throw new HubRefusal(400, `invalid path ${JSON.stringify(path)}`);
        if (seen.has(path)) throw new HubRefusal(400, `${path} appears twice in one commit`);
        seen.add(path);
        if (key === 'file') {
          if (value.encoding !== 'base64')
            throw new HubRefusal(400, `${path}: the loopback Hub takes base64 file contents only`);
          files.push(regularFile(path, new Uint8Array(Buffer.from(stringField(value, 'content'), 'base64'))));
        } else if (key === 'lfsFile') {
          const oid = stringField(value, 'oid');
          const bytes = repo.lfs.get(oid);
          if (bytes === undefined) throw new HubRefusal(422, `${path}: no LFS object ${oid} was uploaded`);
          if (value.size !== bytes.byteLength)
            throw new HubRefusal(
              422,
              `${path}: size ${String(value.size)} does not match the LFS object's ${bytes.byteLength}`,
            );
          files.push(lfsFile(path, bytes, oid));
        } else if (key === 'deletedFile') {
          if (!repo.head.has(path)) throw new HubRefusal(404, `${path} does not exist on main`, 'EntryNotFound');
          deleted.push(path);
        } else {
          throw new HubRefusal(400, `the loopback Hub does not implement the commit operation ${key}`);
        }
      }
      const commit = applyCommit(repo, title, description, files, deleted);
      return {
        status: 200,
        body: {
          success: true,
          commitOid: commit.oid,
          commitUrl: `${url}/datasets/${repo.id}/commit/${commit.oid}`,
          hookOutput: '',
        },
      };
    },

    tree: (request, [org, name, revision, folder], _body, query) => {
      const repo = existingRepo(org, name);
      authorize(request, 'read', repo);
      const { files } = snapshot(repo, decode(revision));
      const prefix = folder === undefined || folder === '' ? '' : `${decodePath(folder).replace(/\/$/, '')}/`;
      const recursive = query.get('recursive') === 'true';
      const below = [...files.values()].filter((file) => file.path.startsWith(prefix));
      if (prefix !== '' && below.length === 0)
        throw new HubRefusal(404, `${prefix} does not exist on ${decode(revision)}`, 'EntryNotFound');
      const directories = new Set<string>();
      const entries: TreeEntry[] = [];
      for (const file of below) {
        const rest = file.path.slice(prefix.length).split('/');
        for (let depth = 1; depth < rest.length && (recursive || depth === 1); depth += 1)
          directories.add(prefix + rest.slice(0, depth).join('/'));
        if (recursive || rest.length === 1) entries.push(treeEntry(file));
      }
      for (const path of directories)
        entries.push({ type: 'directory', oid: gitBlobId(new TextEncoder().encode(path)), size: 0, path });
      // Byte order, as git orders a tree, not the locale's.
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { status: 200, body: entries };
    },

    resolve: (request, [org, name, revision, path]) => {
      const repo = existingRepo(org, name);
      authorize(request, 'read', repo);
      const { oid, files } = snapshot(repo, decode(revision));
      const file = files.get(decodePath(path ?? ''));
      if (file === undefined) throw new HubRefusal(404, `Entry not found: ${decodePath(path ?? '')}`, 'EntryNotFound');
      const headers: Record<string, string> = {
        'Content-Type': 'application/octet-stream',
        'Accept-Ranges': 'bytes',
        ETag: `"${file.lfs ? file.sha256 : file.oid}"`,
        'X-Repo-Commit': oid ?? '',
      };
      const range = request.headers.range;
      if (range === undefined) return { status: 200, headers, body: file.bytes };
      const span = byteRange(range, file.bytes.byteLength);
      if (span === null)
        return { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.bytes.byteLength}` } };
      const [start, end] = span;
      return {
        status: 206,
        headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${file.bytes.byteLength}` },
        body: file.bytes.subarray(start, end + 1),
      };
    },
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    const target = new URL(request.url ?? '/', 'http://127.0.0.1');
    // The body is read whatever the answer, so the client never sees a reset while still sending.
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let endpoint: LoopbackEndpoint | null = null;
    let reply: Reply;
    try {
      const match = ROUTES.map((route) => ({
        route,
        groups: route.method.includes(method) ? route.pattern.exec(target.pathname) : null,
      })).find((candidate) => candidate.groups !== null);
      if (match === undefined || match.groups === null)
        throw new HubRefusal(404, `the loopback Hub does not implement ${method} ${target.pathname}`);
      endpoint = match.route.endpoint;
      const candidate: FailureCandidate = { method, path: target.pathname, headers: request.headers };
      const index = failures.findIndex((planned) => planned.endpoint === endpoint && planned.when(candidate));
      const failure = index === -1 ? undefined : failures.splice(index, 1)[0];
      if (failure !== undefined) throw new HubRefusal(failure.status, failure.message);
      reply = handlers[endpoint](request, match.groups.slice(1), body, target.searchParams);
    } catch (error) {
      if (!(error instanceof HubRefusal)) throw error;
      reply = {
        status: error.status,
        headers: {
          ...(error.errorCode === undefined ? {} : { 'X-Error-Code': error.errorCode }),
          'X-Error-Message': headerSafe(error.message),
        },
        body: { error: error.message },
      };
    }
    requests.push({ method, path: target.pathname, query: target.search, endpoint, status: reply.status });
    const payload =
      reply.body === undefined
        ? new Uint8Array()
        : reply.body instanceof Uint8Array
          ? reply.body
          : typeof reply.body === 'string'
            ? Buffer.from(reply.body)
            : Buffer.from(JSON.stringify(reply.body));
    const isJson = reply.body !== undefined && !(reply.body instanceof Uint8Array) && typeof reply.body !== 'string';
    response.writeHead(reply.status, {
      ...(isJson ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
      ...reply.headers,
      'Content-Length': String(payload.byteLength),
      'X-Request-Id': `loopback-${requests.length}`,
    });
    response.end(method === 'HEAD' ? undefined : payload);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({ error: `loopback Hub bug: ${error instanceof Error ? error.stack : String(error)}` }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    token,
    requests: () => [...requests],
    commits: (repo) => commits.filter((commit) => repo === undefined || commit.repo === repo),
    files: (repo) => repos.get(repo)?.head,
    repoIds: () => [...repos.keys()],
    addRepo: (id, seed = {}) => {
      if (repos.has(id)) throw new Error(`loopback Hub: ${id} exists already`);
      const repo = newRepo(id, seed.private === true);
      const files = Object.entries(seed.files ?? {}).map(([path, content]) => {
        const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
        if (!path.endsWith('.parquet')) return regularFile(path, bytes);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        repo.lfs.set(sha256, bytes);
        return lfsFile(path, bytes, sha256);
      });
      if (files.length > 0) applyCommit(repo, 'initial commit', '', files, []);
    },
    failNext: (endpoint, status, message, when = () => true) => {
      failures.push({ endpoint, status, message, when });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

function regularFile(path: string, bytes: Uint8Array): LoopbackFile {
  return { path, bytes, lfs: false, oid: gitBlobId(bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
}

function lfsFile(path: string, bytes: Uint8Array, sha256: string): LoopbackFile {
  return { path, bytes, lfs: true, oid: gitBlobId(lfsPointer(sha256, bytes.byteLength)), sha256 };
}

/** What git stores for an LFS file; the tree's `oid` and `pointerSize` are of this text. */
function lfsPointer(sha256: string, size: number): Uint8Array {
  return new TextEncoder().encode(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`);
}

function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** An entry of the tree endpoint, as the Hub sends it (what listFiles yields). */
interface TreeEntry {
  readonly type: 'file' | 'directory';
  readonly oid: string;
  readonly size: number;
  readonly path: string;
  readonly lfs?: { readonly oid: string; readonly size: number; readonly pointerSize: number };
}

function treeEntry(file: LoopbackFile): TreeEntry {
  if (!file.lfs) return { type: 'file', oid: file.oid, size: file.bytes.byteLength, path: file.path };
  const pointerSize = lfsPointer(file.sha256, file.bytes.byteLength).byteLength;
  return {
    type: 'file',
    oid: file.oid,
    size: file.bytes.byteLength,
    path: file.path,
    lfs: { oid: file.sha256, size: file.bytes.byteLength, pointerSize },
  };
}

/** The inclusive span of a single `bytes=` range, or null when it cannot be served. */
function byteRange(header: string, size: number): [number, number] | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  const [start, end] =
    from === ''
      ? [Math.max(0, size - Number(to)), size - 1]
      : [Number(from), to === '' ? size - 1 : Math.min(Number(to), size - 1)];
  return start <= end && start < size ? [start, end] : null;
}

/** Node refuses header values outside printable ASCII; the JSON body keeps the message whole. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

function isRepoPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

function decode(segment: string | undefined): string {
  return decodeURIComponent(segment ?? '');
}

function decodePath(path: string): string {
  return path.split('/').map(decode).join('/');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HubRefusal(400, 'the request body is not JSON');
  }
}

function jsonObject(body: Buffer): Record<string, unknown> {
  return objectOf(parseJson(body.toString('utf8')), 'body');
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HubRefusal(400, `${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function stringField(object: Record<string, unknown>, key: string): string {
  const value = object[key];
  if (typeof value !== 'string') throw new HubRefusal(400, `${key} must be a string`);
  return value;
}

function arrayField(object: Record<string, unknown>, key: string): unknown[] {
  const value = object[key];
  if (!Array.isArray(value)) throw new HubRefusal(400, `${key} must be an array`);
  return value as unknown[];
}
