import { RepocodError } from '@repocod/core';
import { DEFAULT_CATALOG_PATH, formatTable, openCatalog } from '@repocod/pipeline';
import { existsSync } from 'node:fs';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

export const SQL_USAGE = `usage: repocod sql "<query>" [--db FILE] [--width N]

Runs SQL on the catalog and prints a table. Tables: repositories, files, functions.`;

export async function sqlCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [query, extra] = args.positionals;
  if (query === undefined || extra !== undefined) throw new RepocodError('usage', SQL_USAGE);
  const dbPath = stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH;
  // Querying must not create an empty catalog where the user mistyped the path.
  if (dbPath !== ':memory:' && !existsSync(dbPath)) {
    throw new RepocodError(
      'path-not-found',
      `${dbPath}: no catalog there; run \`repocod extract <repo-path> --db ${dbPath}\` first`,
    );
  }
  const widthText = stringOption(args, 'width');
  const width = widthText === undefined ? undefined : Number(widthText);
  if (width !== undefined && (!Number.isInteger(width) || width < 4))
    throw new RepocodError('usage', `--width must be a whole number >= 4 (got ${widthText})`);
  const catalog = await openCatalog(dbPath);
  try {
    io.out(`${formatTable(await catalog.query(query), width === undefined ? {} : { maxCellWidth: width })}\n`);
    return 0;
  } finally {
    await catalog.close();
  }
}
