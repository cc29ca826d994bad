import type { AuditEntry, ReferenceAudit } from './reference-audit.js';
import { measuresCell, measuresDiffer } from './reference-audit.js';

/** The reference a release was rebuilt from, as the catalog stored it (`repocod reference add`). */
export interface ReleasedReference {
  readonly name: string;
  /** As given to `--from`: `hub:ORG/NAME@REV`, a file or a release folder. */
  readonly source: string;
  readonly revision: string | null;
  readonly config: string | null;
  readonly form: string | null;
  /** sha256 of its records as read: the same list gives the same hash. */
  readonly contentHash: string;
}

/** What became of one row of the reference in a release: released (and what changed), or left out and why. */
export interface RowFate {
  readonly index: number;
  readonly where: string;
  readonly repository: string;
  readonly name: string;
  readonly instanceId: string | null;
  readonly released: boolean;
  /** Why the row is not in the release; null for a released row. */
  readonly leftOut: string | null;
  /** How the released task differs from the row, each in a phrase; empty when it is the row as given. */
  readonly changes: readonly string[];
}

/**
 * Each row's fate in a release of the reference's tasks, by these rules, in order: a row that did not
 * resolve, or resolved to a function with no task, is left out with the audit's reason; a task that is
 * not released failed validation (its check) or was not picked by the selection's quotas. A released
 * task's changes are what the audit found different from the row: its FAIL_TO_PASS (tests added,
 * lacking and why), its gold patch or test removals, a text that agrees only modulo whitespace, a
 * function our candidate rule would not have taken, the resolver's notes (a choice among several of
 * one name, a path matched by suffix, another base commit) and its figures measured on the row's text.
 */
export function rowFates(audit: ReferenceAudit, released: ReadonlySet<string>): RowFate[] {
  return audit.entries.map((entry) => {
    const isReleased = entry.instanceId !== null && released.has(entry.instanceId);
    return {
      index: entry.index,
      where: entry.where,
      repository: entry.repository,
      name: entry.name,
      instanceId: entry.instanceId,
      released: isReleased,
      leftOut: isReleased ? null : leftOutReason(entry),
      changes: isReleased ? changesOf(entry) : [],
    };
  });
}

function leftOutReason(entry: AuditEntry): string {
  if (entry.resolution !== 'resolved') return `not resolved (${entry.resolution}): ${entry.detail ?? ''}`.trim();
  if (entry.instanceId === null) return entry.noTask ?? 'no task';
  if (entry.verdict?.startsWith('failed') === true)
    return `failed validation: ${entry.verdict.slice('failed: '.length)}`;
  if (entry.verdict?.startsWith('not judged') === true) return `not judged by validation: ${entry.verdict.slice(12)}`;
  if (entry.verdict === 'not validated') return 'not validated';
  return "not picked by the selection's quotas";
}

function changesOf(entry: AuditEntry): string[] {
  const changes: string[] = [];
  const tests = entry.failToPass;
  if (tests?.same === false) {
    const why = Object.entries(tests.lackingWhy).map(([reason, n]) => `${reason} ${n}`);
    changes.push(
      `FAIL_TO_PASS ${tests.ours} against ${tests.theirs}: adds ${tests.added.length}, lacks ${tests.lacking.length}${
        why.length > 0 ? ` (${why.join(', ')})` : ''
      }`,
    );
  }
  if (entry.goldPatch === 'differs') changes.push("gold patch differs from the reference's");
  if (entry.testRemovals === 'differs') changes.push("test removals (pre_patches.test) differ from the reference's");
  if (entry.text === 'whitespace') changes.push('its text agrees with ours only once whitespace is normalised');
  if (entry.outsideCandidates) changes.push('outside our candidate rule (kept: the reference names it)');
  changes.push(...entry.notes);
  if (measuresDiffer(entry)) changes.push(`#NL / #GT / cyclo ${measuresCell(entry)}`);
  return changes;
}

/**
 * The dataset card's section for a release rebuilt from a reference: which list, at which revision,
 * the audit's headline, then every row left out and every released task that differs from its row,
 * each with why. A reader sees what the release is against the list it claims to rebuild, where
 * REPOCOD-Lite 1.1 dropped 27 of 200 tasks without saying which.
 */
export function referenceReleaseSection(
  audit: ReferenceAudit,
  reference: ReleasedReference,
  fates: readonly RowFate[],
): string {
  const leftOut = fates.filter((fate) => !fate.released);
  const changed = fates.filter((fate) => fate.released && fate.changes.length > 0);
  const releasedRows = fates.length - leftOut.length;
  const origin = [
    `\`${reference.source}\``,
    ...(reference.config === null ? [] : [`config \`${reference.config}\``]),
    reference.revision === null ? 'no revision given' : `revision \`${reference.revision}\``,
    `${reference.form ?? 'unknown'} form`,
    `content sha256 \`${reference.contentHash.slice(0, 16)}\``,
  ].join(', ');
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const taskCell = (fate: RowFate): string => (fate.instanceId === null ? '–' : `\`${fate.instanceId}\``);
  return [
    '## Rebuilt from a reference',
    '',
    `This version rebuilds the tasks of the reference \`${reference.name}\` (${origin}) from source: each of`,
    "its rows resolved to one function at the manifest's base commit, mined for its relevant tests, made into a",
    'task and validated by repocod-kit (docs/reference.md in repocod-kit). The audit:',
    '',
    `> ${audit.headline}.`,
    '',
    `Released: ${releasedRows} of the ${fates.length} rows; left out: ${leftOut.length}; released with a ` +
      `difference from their row: ${changed.length}. \`reference.jsonl\` beside the Parquet has every row's fate.`,
    '',
    ...(leftOut.length === 0
      ? []
      : [
          '### Rows left out',
          '',
          '| # | repository | name | task | why |',
          '|---|---|---|---|---|',
          ...leftOut.map(
            (fate) =>
              `| ${fate.index} | ${fate.repository} | \`${cell(fate.name)}\` | ${taskCell(fate)} | ${cell(
                fate.leftOut ?? '',
              )} |`,
          ),
          '',
        ]),
    ...(changed.length === 0
      ? []
      : [
          '### Released tasks that differ from their row',
          '',
          '| # | repository | name | task | what differs |',
          '|---|---|---|---|---|',
          ...changed.map(
            (fate) =>
              `| ${fate.index} | ${fate.repository} | \`${cell(fate.name)}\` | ${taskCell(fate)} | ${cell(
                fate.changes.join('; '),
              )} |`,
          ),
          '',
        ]),
  ].join('\n');
}

/** `reference.jsonl`: one JSON line per row of the reference with its fate in the release. */
export function referenceReleaseRecord(fates: readonly RowFate[]): string {
  return fates.map((fate) => `${JSON.stringify(fate)}\n`).join('');
}
