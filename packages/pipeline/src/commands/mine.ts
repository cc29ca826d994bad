import type { Catalog } from '@repocod/catalog';
import type { MiningEvent } from '@repocod/mining';
import type { PreparedRepository } from '@repocod/runner';
import { catalogName } from '@repocod/runner';
import type { ExtractSummary } from '../steps/extract.js';
import { extractStep } from '../steps/extract.js';
import type { MineStepOptions, MineSummary } from '../steps/mine.js';
import { mineStep } from '../steps/mine.js';
import type { PrepareOptions } from '../steps/prepare.js';
import { prepareStep } from '../steps/prepare.js';

export interface MineCommandOptions extends PrepareOptions, Omit<MineStepOptions, 'onEvent'> {
  readonly repository: string;
  readonly onEvent?: (event: MineCommandEvent) => void;
}

export type MineCommandEvent =
  | { readonly kind: 'prepared'; readonly prepared: PreparedRepository }
  | { readonly kind: 'extracted'; readonly summary: ExtractSummary; readonly targets: number }
  | MiningEvent;

/**
 * `repocod mine`: the checkout, its environment and worktrees; the functions of the checkout (extract,
 * incremental); then the relevant tests of every candidate, stored in the catalog as each finishes.
 */
export async function runMineCommand(catalog: Catalog, options: MineCommandOptions): Promise<MineSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const prepared = await prepareStep(options.repository, options);
  emit({ kind: 'prepared', prepared });
  const extraction = await extractStep(catalog, {
    root: prepared.checkout.path,
    repository: catalogName(prepared.entry),
    config: options.extraction,
    baseCommit: prepared.checkout.baseCommit,
  });
  return mineStep(catalog, prepared, {
    ...options,
    onEvent: (event) =>
      emit(event.kind === 'targets' ? { kind: 'extracted', summary: extraction, targets: event.targets } : event),
  });
}
