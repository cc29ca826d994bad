/**
 * A task's instance id: readable, stable across runs, unique within a release. Built from the
 * repository (`owner__name`, SWE-bench's way), the module as the package imports it (the file's path
 * from the manifest's package root, dotted, without a leading `src.`) and the qualified name
 * (`<locals>` written `locals`): `pallets__flask-flask.app.Flask.make_response`, and for plotly.py,
 * whose package root is packages/python/plotly, `plotly__plotly.py-plotly.graph_objs._figure.Figure.show`.
 */
export function instanceId(repository: string, file: string, qualname: string, packageRoot = '.'): string {
  const root = packageRoot.replace(/^\.\/?/, '').replace(/\/+$/, '');
  const fromRoot = root !== '' && file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
  const module = fromRoot
    .replace(/\.py$/, '')
    .replace(/\/__init__$/, '')
    .replace(/^src\//, '')
    .split('/')
    .join('.');
  const name = qualname.replaceAll('<locals>', 'locals');
  return `${repositorySlug(repository)}-${module}.${name}`;
}

/** `owner__name` from a GitHub url or an `owner/name`; a bare name (the demo) stays as it is. */
export function repositorySlug(repository: string): string {
  const match = /([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(repository);
  return match === null ? repository : `${match[1]}__${match[2]}`;
}

/**
 * Unique ids for a list of functions: when two functions would share an id (a function defined twice
 * in one file, under if/else), each gets its definition line appended, `…-L42`.
 */
export function uniqueInstanceIds<
  T extends { readonly file: string; readonly qualname: string; readonly line: number },
>(repository: string, functions: readonly T[], packageRoot = '.'): Map<T, string> {
  const counts = new Map<string, number>();
  for (const fn of functions) {
    const id = instanceId(repository, fn.file, fn.qualname, packageRoot);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return new Map(
    functions.map((fn) => {
      const id = instanceId(repository, fn.file, fn.qualname, packageRoot);
      return [fn, (counts.get(id) ?? 0) > 1 ? `${id}-L${fn.line}` : id];
    }),
  );
}
