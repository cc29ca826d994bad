import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigInfo } from '@repocod/publish';
import { configsOfCard } from '@repocod/publish';

/** The versions a release folder already holds, with their sizes (none when it has no card yet). */
export function releasedVersions(folder: string): ConfigInfo[] {
  const card = join(folder, 'README.md');
  if (!existsSync(card)) return [];
  return configsOfCard(readFileSync(card, 'utf8'), card);
}
