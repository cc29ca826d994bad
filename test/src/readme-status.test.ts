import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-paths.js';

/**
 * README's status table is the committed records' (datasets/repocod/rebuilt/), written by
 * scripts/readme-status.mjs: a record that changes without README, or a hand edit of the table, fails here.
 */
interface StatusGenerator {
  readonly STATUS_COMMAND: string;
  readStatusRecords(root: string): StatusRecords;
  statusMarkdown(records: StatusRecords): string;
  withStatus(readme: string, markdown: string): string;
}

interface StatusRecords {
  readonly metas: readonly { readonly repository: string; readonly candidates: number }[];
  readonly lite: { readonly selection: string };
  readonly release: { readonly selection: string };
}

// A plain .mjs script without types: imported by URL, its few functions typed above.
const generator = (await import(
  pathToFileURL(join(PROJECT_ROOT, 'scripts/readme-status.mjs')).href
)) as StatusGenerator;

describe("README's status", () => {
  it('is the table the committed records give', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const regenerated = generator.withStatus(
      readme,
      generator.statusMarkdown(generator.readStatusRecords(PROJECT_ROOT)),
    );
    expect(readme, `README's status differs from the records: run ${generator.STATUS_COMMAND}`).toBe(regenerated);
  });

  it("moves with a record's figure and names the disagreeing records", () => {
    const records = generator.readStatusRecords(PROJECT_ROOT);
    const [first, ...rest] = records.metas;
    const changed = { ...records, metas: [{ ...first!, candidates: first!.candidates + 1 }, ...rest] };
    expect(generator.statusMarkdown(changed)).not.toBe(generator.statusMarkdown(records));
    const release = { ...records.release, selection: 'another' };
    const disagreement = `lite.json ${records.lite.selection}, lite-release.json another`;
    expect(() => generator.statusMarkdown({ ...records, release })).toThrow(
      `the committed records disagree on the Lite selection: ${disagreement}`,
    );
  });

  it('needs both markers in README', () => {
    expect(() => generator.withStatus('# no status here\n', '')).toThrow(/<!-- status:start -->/);
    expect(() => generator.withStatus('<!-- status:start -->\n', '')).toThrow(/<!-- status:end -->/);
  });
});
