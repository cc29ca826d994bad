/** One candidate mode measured on one repository (see @repocod/pipeline's candidateModeCounts). */
export interface ModeCount {
  readonly candidates: number;
  readonly mined: number;
  readonly withTests: number;
}

export interface RepositoryModeCounts {
  readonly repository: string;
  readonly modes: Readonly<Record<string, ModeCount>>;
}

/** A mode's tasks on a repository: exact when every candidate is mined, else a lower bound and an estimate. */
export interface ModeTasks {
  readonly exact: boolean;
  /** Exact: the tasks; otherwise the mined candidates with relevant tests (a lower bound). */
  readonly atLeast: number;
  /** Candidates × the mined share with relevant tests; null when nothing is mined. */
  readonly estimate: number | null;
}

export function modeTasks(count: ModeCount): ModeTasks {
  const exact = count.mined >= count.candidates;
  const estimate = count.mined === 0 ? null : Math.round((count.candidates * count.withTests) / count.mined);
  return { exact, atLeast: count.withTests, estimate: exact ? count.withTests : estimate };
}

/** How far a mode is from REPOCOD's totals, over the repositories where its task count is exact. */
export interface ModeDistance {
  readonly mode: string;
  /** Repositories with an exact count, and how many of them are within 10% of REPOCOD's. */
  readonly exact: number;
  readonly within10: number;
  /** Mean |ln(ours / REPOCOD's)| over the exact ones: 0 is a match, 0.1 about 10% off. */
  readonly meanLogError: number | null;
  /** Repositories whose lower bound alone is over REPOCOD's count by more than 10%: no cut of mining fixes them. */
  readonly overAtLeast: readonly string[];
}

export function modeDistances(
  rows: readonly RepositoryModeCounts[],
  modes: readonly string[],
  totals: Readonly<Record<string, number>>,
): ModeDistance[] {
  return modes.map((mode) => {
    let exact = 0;
    let within10 = 0;
    let logSum = 0;
    const overAtLeast: string[] = [];
    for (const row of rows) {
      const reference = totals[row.repository];
      const count = row.modes[mode];
      if (reference === undefined || count === undefined) continue;
      const tasks = modeTasks(count);
      if (tasks.exact) {
        exact++;
        if (Math.abs(tasks.atLeast / reference - 1) <= 0.1) within10++;
        logSum += Math.abs(Math.log(Math.max(tasks.atLeast, 1) / reference));
      } else if (tasks.atLeast > reference * 1.1) overAtLeast.push(row.repository);
    }
    return { mode, exact, within10, meanLogError: exact === 0 ? null : logSum / exact, overAtLeast };
  });
}

/**
 * The measurement as Markdown: per repository, REPOCOD's task count beside each mode's (exact, or a
 * lower bound and an estimate where mining stopped short), then per mode its distance to REPOCOD's.
 */
export function candidateModeMarkdown(
  rows: readonly RepositoryModeCounts[],
  modes: readonly string[],
  totals: Readonly<Record<string, number>>,
): string {
  const header = `| repository | REPOCOD | ${modes.join(' | ')} |\n|---|---:|${modes.map(() => '---:').join('|')}|`;
  const lines = rows.map((row) => {
    const reference = totals[row.repository];
    const cells = modes.map((mode) => {
      const count = row.modes[mode];
      return count === undefined ? '–' : modeCell(count, reference);
    });
    return `| ${row.repository} | ${reference ?? '–'} | ${cells.join(' | ')} |`;
  });
  const distances = modeDistances(rows, modes, totals).map((distance) => {
    const error = distance.meanLogError === null ? 'n/a' : distance.meanLogError.toFixed(2);
    const over = distance.overAtLeast.length === 0 ? 'none' : distance.overAtLeast.join(', ');
    return (
      `- **${distance.mode}**: within 10% on ${distance.within10} of the ${distance.exact} repositories mined ` +
      `whole; mean |ln(ours/REPOCOD)| ${error} there; already over by more than 10% where partly mined: ${over}`
    );
  });
  return [
    header,
    ...lines,
    '',
    'A cell: tasks (candidates) and the difference to REPOCOD. Where mining stopped short (Lite-first), ' +
      '"≥ n" is what is mined so far and "≈ n" the candidates times the share of mined ones with relevant tests ' +
      '(the mined ones are the top of the Lite ranking, not a random sample: the estimate is rough).',
    '',
    ...distances,
    '',
  ].join('\n');
}

function modeCell(count: ModeCount, reference: number | undefined): string {
  const tasks = modeTasks(count);
  const difference = (value: number): string =>
    reference === undefined ? '' : ` ${signedPercent(value / reference - 1)}`;
  if (tasks.exact) return `${tasks.atLeast} (${count.candidates})${difference(tasks.atLeast)}`;
  const estimate = tasks.estimate === null ? '' : `, ≈ ${tasks.estimate}${difference(tasks.estimate)}`;
  return `≥ ${tasks.atLeast} (${count.candidates})${estimate}`;
}

function signedPercent(ratio: number): string {
  const percent = Math.round(ratio * 100);
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent)}%`;
}
