import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';

/** The reference a stored selection was made over (its spec's `reference`), or undefined. */
export function referenceOfSpec(spec: string): string | undefined {
  return (JSON.parse(spec) as { reference?: string }).reference;
}

/**
 * `--reference NAME` on validate and publish: the selection they work on is the newest one made over
 * that reference (`select --reference NAME`), or the one given, which must be over it. Naming the
 * reference keeps a later `select` of another pool from being validated or released under its name.
 */
export async function selectionOverReference(
  catalog: Catalog,
  reference: string,
  selectionId: string | undefined,
): Promise<string> {
  const selections = await catalog.selections();
  if (selectionId !== undefined) {
    const given = selections.find((selection) => selection.selectionId === selectionId);
    if (given === undefined)
      throw new RepocodError(
        'usage',
        `no selection ${selectionId} in the catalog; \`repocod sql "select * from selections"\` lists them`,
      );
    const over = referenceOfSpec(given.spec);
    if (over !== reference)
      throw new RepocodError(
        'usage',
        `selection ${selectionId} is ${over === undefined ? 'over no reference' : `over reference ${over}`}, not ` +
          `${reference}; run \`repocod select --reference ${reference} --keep-all\`, or give the --selection of one ` +
          `over it`,
      );
    return selectionId;
  }
  const newest = selections.find((selection) => referenceOfSpec(selection.spec) === reference);
  if (newest === undefined)
    throw new RepocodError(
      'usage',
      `no selection over reference ${reference} in the catalog; run \`repocod select --reference ${reference} ` +
        `--keep-all\` first`,
    );
  return newest.selectionId;
}
