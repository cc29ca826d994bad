import type { Catalog } from '@repocod/catalog';
import type { LiteMiningOptions, LiteMiningSummary } from '../lite/lite-mining.js';
import { liteMining } from '../lite/lite-mining.js';
import { extractStep } from '../steps/extract.js';
import type { PrepareOptions } from '../steps/prepare.js';
import { PreparedRepositories } from '../steps/prepare.js';

export interface LiteMineCommandOptions extends PrepareOptions, LiteMiningOptions {}

/**
 * `repocod mine --lite`: every repository's checkout, environment and functions made or reused (extraction is
 * incremental), then Lite-first mining over all of them (see liteMining).
 */
export async function runLiteMineCommand(
  catalog: Catalog,
  options: LiteMineCommandOptions,
): Promise<LiteMiningSummary> {
  const prepared = new PreparedRepositories(options);
  for (const repository of options.repositories) {
    const ready = await prepared.get(repository);
    const { path: root, baseCommit } = ready.checkout;
    await extractStep(catalog, { root, repository, config: options.extraction, baseCommit });
  }
  return liteMining(catalog, prepared, options);
}
