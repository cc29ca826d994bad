import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { VersionFile } from '@repocod/publish';
import type { ReferenceAudit, ReleasedReference } from '@repocod/reference';
import { referenceReleaseRecord, referenceReleaseSection, rowFates } from '@repocod/reference';
import type { FindRepositoryOptions } from '../steps/find-repository.js';
import { listRepositories } from '../steps/find-repository.js';
import { referenceAuditReport } from '../reports/reference-audit-report.js';
import { referenceOfSpec } from './reference-selection.js';

/** Where a release finds the reference its selection was made over (`publish --reference NAME`). */
export interface ReleaseReferenceOptions extends FindRepositoryOptions {
  /** The reference the curator means to release; the selection must be over it. */
  readonly name?: string;
}

/** The audit of a selection's reference, to say in the release what became of each of its rows. */
export interface ReleaseReference {
  readonly reference: ReleasedReference;
  readonly audit: ReferenceAudit;
}

/** `reference.jsonl` beside a version's Parquet: each row of the reference with its fate in the release. */
export const REFERENCE_RECORD = 'reference.jsonl';

/**
 * The reference a selection was made over (`select --reference NAME`, its spec's `reference`), audited
 * against the catalog as it is; null for a selection over no reference. A `name` the selection is not
 * over is refused: releasing another pool under a reference's name would misstate the release.
 */
export async function referenceOfRelease(
  catalog: Catalog,
  selection: { readonly selectionId: string; readonly spec: string },
  options: ReleaseReferenceOptions | undefined,
): Promise<ReleaseReference | null> {
  const over = referenceOfSpec(selection.spec);
  if (options?.name !== undefined && options.name !== over)
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} is ${over === undefined ? 'over no reference' : `over reference ${over}`}, ` +
        `not ${options.name}; run \`repocod select --reference ${options.name} --keep-all\` (and validate it), or ` +
        `give ` +
        `--selection ID of a selection over it`,
    );
  if (over === undefined) return null;
  if (options === undefined)
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} is over reference ${over}: its release needs the manifest to resolve it`,
    );
  const stored = await catalog.reference(over);
  if (stored === null)
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} is over reference ${over}, which the catalog no longer holds; add it again ` +
        `(repocod reference add ${over} --from SOURCE) before releasing`,
    );
  const audit = await referenceAuditReport(catalog, over, {
    repositories: listRepositories(options),
    projectRoot: options.projectRoot,
  });
  return {
    reference: {
      name: stored.name,
      source: stored.source,
      revision: stored.revision,
      config: stored.config,
      form: stored.form,
      contentHash: stored.contentHash,
    },
    audit,
  };
}

/** What a release of a reference's tasks says of it, in brief: for the publish command's summary. */
export interface ReleasedReferenceSummary {
  readonly name: string;
  readonly headline: string;
  readonly rows: number;
  readonly leftOut: number;
  /** Released tasks that differ from their row. */
  readonly changed: number;
}

/** The card's section and `reference.jsonl` of a release of the reference's tasks (released: instance ids). */
export function referenceReleaseParts(
  found: ReleaseReference,
  released: ReadonlySet<string>,
): { readonly section: string; readonly record: VersionFile; readonly summary: ReleasedReferenceSummary } {
  const fates = rowFates(found.audit, released);
  return {
    section: referenceReleaseSection(found.audit, found.reference, fates),
    record: { name: REFERENCE_RECORD, content: referenceReleaseRecord(fates) },
    summary: {
      name: found.reference.name,
      headline: found.audit.headline,
      rows: fates.length,
      leftOut: fates.filter((fate) => !fate.released).length,
      changed: fates.filter((fate) => fate.released && fate.changes.length > 0).length,
    },
  };
}
