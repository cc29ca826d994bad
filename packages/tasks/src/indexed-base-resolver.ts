import type { RepositoryIndex } from './repository-index.js';
import type { BaseResolver } from './test-removal.js';

/**
 * Places a base class written in a test file with the repository index's name resolution: the
 * file's own names, its imports (absolute, relative, aliased, re-exported through `__init__.py`)
 * and attribute chains (`helpers.SharedTests`). Anything that is not a class of the repository
 * (a third-party base, a computed one) is left unplaced.
 */
export function indexedBaseResolver(index: RepositoryIndex): BaseResolver {
  return (file, written) => {
    const [root, ...attributes] = written.split('.');
    if (root === undefined || root === '') return null;
    const found = index.lookupInModule(file, root);
    if (found === null) return null;
    const walk = index.walkAttributes(found.resolution, attributes);
    if (walk === null || walk.consumed !== attributes.length || walk.site.kind !== 'class') return null;
    return { file: walk.site.file, qualname: walk.site.qualname };
  };
}
