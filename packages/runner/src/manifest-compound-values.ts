import { isMap, isScalar, type Node } from 'yaml';
import type { InstallStep } from './install-step.js';
import type { AbsentFile, DeselectedTest, StandIn } from './manifest.js';
import type { Field, ManifestDocument } from './manifest-document.js';

/**
 * The checks of a manifest's values that hold fields of their own (install steps, deselected tests,
 * environment variables, a stand-in): each knows its sub-fields and throws the first problem with its line.
 */

const DESELECT_FIELDS = ['id', 'reason'] as const;
const ABSENT_FILE_FIELDS = ['path', 'why'] as const;
const STAND_IN_FIELDS = ['sdist', 'sha256', 'why'] as const;
const SHA256 = /^[0-9a-f]{64}$/;
const RESOLVED_INSTALL_FIELDS = ['pip'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `path.py`, then `::name` parts; only the last part may carry `[parameters]`, which may hold anything. */
const NODE_ID = /^[^\s:\\/][^\s:\\]*\.(?:py|rst|txt|md)(?:::[^\s:[\]]+)*(?:::[^\s:[\]]+\[.*\])?$/;

/**
 * The runner sets these itself so that runs are deterministic and use the right interpreter; a manifest
 * that set them would silently undo that.
 */
export const RUNNER_OWNED_ENV = ['PATH', 'VIRTUAL_ENV', 'PYTHONHASHSEED', 'TZ', 'LC_ALL'] as const;

/** Shell commands (strings) and resolved installs (`{pip: [arguments]}`). */
export function parseInstall(document: ManifestDocument, field: Field): InstallStep[] {
  return document.list(field).map((item) => {
    if (item.node === null || !isMap(item.node))
      return document.string(item, 'a shell command or {pip: [arguments]}').value;
    const fields = document.fieldsOf(item.node, item.path, RESOLVED_INSTALL_FIELDS, item.line);
    const pip = document.stringList(
      document.required(
        fields,
        'pip',
        item.path,
        item.line,
        'the arguments of pip install, e.g. pip: [-r, requirements.txt]',
      ),
    );
    if (pip.length === 0)
      document.fail(
        item.line,
        `${item.path}.pip`,
        'names nothing to install (give requirements, -r FILE or --editable PATH)',
      );
    return { pip };
  });
}

export function parseDeselect(document: ManifestDocument, field: Field): DeselectedTest[] {
  const seen = new Set<string>();
  return document.list(field).map((item) => {
    if (item.node === null || !isMap(item.node)) {
      document.fail(
        item.line,
        item.path,
        `must be a mapping {id: <pytest node id>, reason: <why>} (got ${document.describe(item.node)})`,
      );
    }
    const fields = document.fieldsOf(item.node, item.path, DESELECT_FIELDS, item.line);
    const id = document.string(document.required(fields, 'id', item.path, item.line, 'the pytest node id of the test'));
    if (!NODE_ID.test(id.value) || id.value.split(/::/)[0]?.split('/').includes('..')) {
      document.fail(
        id.line,
        id.path,
        `must be a pytest node id like tests/test_x.py::TestY::test_z[param] (got ${JSON.stringify(id.value)})`,
      );
    }
    if (seen.has(id.value))
      document.fail(id.line, id.path, `deselects ${JSON.stringify(id.value)} a second time; list each test once`);
    seen.add(id.value);
    const reason = document.string(
      document.required(fields, 'reason', item.path, item.line, 'why the test is left out'),
    );
    return { id: id.value, reason: reason.value };
  });
}

/** Files the clone may lack: `{path, why}` each, a relative path inside the repository, listed once. */
export function parseAbsentFiles(document: ManifestDocument, field: Field): AbsentFile[] {
  const seen = new Set<string>();
  const files = document.list(field).map((item) => {
    if (item.node === null || !isMap(item.node)) {
      document.fail(
        item.line,
        item.path,
        'must be a mapping {path: <file in the repository>, why: <why no test needs it>} ' +
          `(got ${document.describe(item.node)})`,
      );
    }
    const fields = document.fieldsOf(item.node, item.path, ABSENT_FILE_FIELDS, item.line);
    const path = document.string(
      document.required(fields, 'path', item.path, item.line, 'the file, relative to the repository root'),
    );
    if (
      path.value.startsWith('/') ||
      path.value.split('/').some((part) => part === '..' || part === '.' || part === '')
    )
      document.fail(
        path.line,
        path.path,
        `must be a path inside the repository like js/lib/x.js (got ${JSON.stringify(path.value)})`,
      );
    if (seen.has(path.value))
      document.fail(path.line, path.path, `names ${JSON.stringify(path.value)} a second time; list each file once`);
    seen.add(path.value);
    const why = document.string(document.required(fields, 'why', item.path, item.line, 'why no test needs the file'));
    return { path: path.value, why: why.value };
  });
  if (files.length === 0) document.fail(field.line, field.path, 'lists no file; remove it or name one');
  return files;
}

export function parseEnv(document: ManifestDocument, field: Field, example: string): Record<string, string> {
  if (field.node === null || !isMap(field.node)) {
    document.fail(
      field.line,
      field.path,
      `must be a mapping of variable names to values, e.g. ${example} (got ${document.describe(field.node)})`,
    );
  }
  const env: Record<string, string> = {};
  for (const pair of field.node.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? keyNode.value : undefined;
    const keyLine = document.lineOf(keyNode, field.line);
    if (typeof key !== 'string' || !ENV_NAME.test(key)) {
      document.fail(
        keyLine,
        field.path,
        `has ${document.describe(keyNode)} as a variable name; names are letters, digits and "_", not starting ` +
          `with a digit`,
      );
    }
    const path = `${field.path}.${key}`;
    if ((RUNNER_OWNED_ENV as readonly string[]).includes(key)) {
      document.fail(
        keyLine,
        path,
        'is set by the runner (TZ=UTC, PYTHONHASHSEED=0, LC_ALL=C.UTF-8 for deterministic runs; PATH and VIRTUAL_ENV ' +
          'select the environment); remove it',
      );
    }
    const value = document.string(
      document.valueField(pair.value as Node | null, path, keyLine),
      'a string (quote numbers, e.g. "1")',
      true,
    );
    env[key] = value.value;
  }
  return env;
}

/** A source distribution that stands in for the commit where the clone cannot be had (see StandIn). */
export function parseStandIn(document: ManifestDocument, field: Field): StandIn {
  if (field.node === null || !isMap(field.node)) {
    document.fail(
      field.line,
      field.path,
      `must be a mapping {sdist: <https URL of a .tar.gz>, sha256: <64 hex digits>, why: <reason>} (got ` +
        `${document.describe(field.node)})`,
    );
  }
  const fields = document.fieldsOf(field.node, field.path, STAND_IN_FIELDS, field.line);
  const sdist = document.string(document.required(fields, 'sdist', field.path, field.line, 'the URL of the .tar.gz'));
  if (!/^https:\/\/\S+\.tar\.gz$/.test(sdist.value))
    document.fail(sdist.line, sdist.path, `must be an https URL of a .tar.gz (got ${JSON.stringify(sdist.value)})`);
  const sha256 = document.string(document.required(fields, 'sha256', field.path, field.line, 'the archive’s sha256'));
  if (!SHA256.test(sha256.value))
    document.fail(sha256.line, sha256.path, `must be 64 lowercase hex digits (got ${JSON.stringify(sha256.value)})`);
  const why = document.string(
    document.required(fields, 'why', field.path, field.line, 'why it stands in for the commit'),
  );
  return { sdist: sdist.value, sha256: sha256.value, why: why.value };
}
