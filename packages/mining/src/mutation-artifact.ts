import type { TestOutcome } from '@repocod/core';
import { RepocodError, TEST_OUTCOMES } from '@repocod/core';
import type { PytestRun } from '@repocod/runner';

/** One target's record from the in-process mutation plugin (harness/repocod_mutate.py). */
export type InProcessRecord =
  | {
      readonly id: string;
      readonly status: 'ok';
      readonly outcomes: ReadonlyMap<string, TestOutcome>;
      readonly seconds: number;
    }
  | { readonly id: string; readonly status: 'unswappable'; readonly reason: string };

const OUTCOMES: ReadonlySet<string> = new Set(TEST_OUTCOMES);

/**
 * Reads the plugin's JSON lines. A last line cut short (the process was killed while writing) is
 * dropped: its target simply has no record and is run again in a process of its own.
 */
export function parseMutationArtifact(text: string, source: string): InProcessRecord[] {
  const lines = text.split('\n');
  const records: InProcessRecord[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: { id?: unknown; status?: unknown; outcomes?: unknown; reason?: unknown; seconds?: unknown };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      if (index === lines.length - 1) break;
      throw new RepocodError('tests-cannot-run', `${source}, line ${index + 1}: not JSON: ${line.slice(0, 200)}`);
    }
    if (typeof value.id === 'string' && value.status === 'unswappable' && typeof value.reason === 'string') {
      records.push({ id: value.id, status: 'unswappable', reason: value.reason });
    } else if (typeof value.id === 'string' && value.status === 'ok' && isOutcomeRecord(value.outcomes)) {
      records.push({
        id: value.id,
        status: 'ok',
        outcomes: new Map(Object.entries(value.outcomes)),
        seconds: typeof value.seconds === 'number' ? value.seconds : 0,
      });
    } else {
      throw new RepocodError(
        'tests-cannot-run',
        `${source}, line ${index + 1}: expected {id, status, outcomes|reason}, got ${line.slice(0, 200)}`,
      );
    }
  }
  return records;
}

function isOutcomeRecord(value: unknown): value is Record<string, TestOutcome> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((outcome) => typeof outcome === 'string' && OUTCOMES.has(outcome))
  );
}

/** The in-process plugin's records of a batch run; none when the run wrote nothing. */
export function mutationRecords(run: PytestRun | undefined): InProcessRecord[] {
  return run === undefined || run.artifact === null ? [] : parseMutationArtifact(run.artifact, 'a mutation batch');
}
