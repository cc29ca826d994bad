import { RepocodError } from '@repocod/core';
import { costTable, DEFAULT_CATALOG_PATH, openCatalog, storedCost } from '@repocod/pipeline';
import { existsSync } from 'node:fs';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

export const COST_USAGE = `usage: repocod cost [--repo NAME] [--json] [--db FILE]

What the flow's pytest jobs have cost in the catalog, per repository (each era apart), stage and phase: jobs,
pytest processes, test executions, whole-suite equivalents and busy seconds. Each job is kept as it ends, so a
build stopped and carried on over several runs is counted whole; in a fresh catalog this is its cold cost.`;

export async function costCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', COST_USAGE);
  const dbPath = stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH;
  // Reading must not create an empty catalog where the user mistyped the path.
  if (!existsSync(dbPath)) {
    throw new RepocodError('path-not-found', `${dbPath}: no catalog there; give the one the build used with --db`);
  }
  const name = stringOption(args, 'repo');
  const catalog = await openCatalog(dbPath);
  try {
    const cost = await storedCost(catalog, name);
    if (args.flags.get('json') === true) {
      io.out(`${JSON.stringify(cost, null, 2)}\n`);
      return 0;
    }
    const lines = costTable(cost, 'every job the catalog has run');
    if (lines.length === 0) {
      const whose = name === undefined ? '' : ` for ${name}`;
      io.out(`no job cost is kept in ${dbPath}${whose} (a flow run keeps one per job it runs)\n`);
      return 0;
    }
    io.out(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await catalog.close();
  }
}
