import { namedChildrenOf } from '@repocod/python';
import type { Node } from 'web-tree-sitter';
import type { ImportBinding, ImportSource } from './module-summary.js';
import { dottedText } from './name-syntax.js';

/** A name an import statement binds, and what it binds it to. */
export interface ImportedName {
  readonly name: string;
  readonly binding: ImportBinding;
}

/** A `from … import …` statement: where it points, and either `*` or the names it binds. */
export interface FromImport {
  readonly source: ImportSource;
  readonly star: boolean;
  readonly names: readonly ImportedName[];
}

/** Each name an import statement lists, as written: `a.b` (no alias) or `a.b as c`. */
function listedNames(node: Node): { readonly target: string; readonly alias: string | null }[] {
  const listed: { readonly target: string; readonly alias: string | null }[] = [];
  for (const name of node.childrenForFieldName('name')) {
    if (name?.type === 'dotted_name') listed.push({ target: dottedText(name), alias: null });
    else if (name?.type === 'aliased_import') {
      const target = name.childForFieldName('name');
      const alias = name.childForFieldName('alias');
      if (target !== null && alias !== null) listed.push({ target: dottedText(target), alias: alias.text });
    }
  }
  return listed;
}

/** What an `import …` statement binds, in source order. */
export function importBindings(node: Node): ImportedName[] {
  return listedNames(node).flatMap(({ target, alias }): ImportedName[] => {
    if (alias !== null) return [{ name: alias, binding: { kind: 'module', module: target, level: 0 } }];
    // `import a.b.c` binds `a`; the submodules are reached through it as attributes.
    const top = target.split('.')[0] ?? '';
    return top === '' ? [] : [{ name: top, binding: { kind: 'module', module: top, level: 0 } }];
  });
}

/** Where a `from … import …` statement points and what it binds; null when it names no module. */
export function readFromImport(node: Node): FromImport | null {
  const moduleName = node.childForFieldName('module_name');
  if (moduleName === null) return null;
  let source: ImportSource;
  if (moduleName.type === 'relative_import') {
    const prefix = namedChildrenOf(moduleName).find((child) => child.type === 'import_prefix');
    const dotted = namedChildrenOf(moduleName).find((child) => child.type === 'dotted_name');
    source = {
      module: dotted === undefined ? '' : dottedText(dotted),
      level: (prefix?.text ?? '').replace(/[^.]/g, '').length,
    };
  } else {
    source = { module: dottedText(moduleName), level: 0 };
  }
  if (namedChildrenOf(node).some((child) => child.type === 'wildcard_import')) return { source, star: true, names: [] };
  const names = listedNames(node).map(
    ({ target, alias }): ImportedName => ({
      name: alias ?? target,
      binding: { kind: 'member', ...source, member: target },
    }),
  );
  return { source, star: false, names };
}
