import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The installed version of a dependency, read from its package.json. Packages with an `exports`
 * map may not export package.json, so this resolves the entry point and walks up to it.
 */
export function installedVersion(resolveFrom: NodeJS.Require, name: string): string {
  let folder = dirname(resolveFrom.resolve(name));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === name && parsed.version !== undefined) return parsed.version;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the package.json of ${name}`);
    folder = parent;
  }
}
