import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { reportText } from '@repocod/evaluate';
import { ChangedSinceError } from '@repocod/runner';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvaluateCommand } from '../commands/evaluate.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';
import { evaluationReports } from '../reports/evaluation-reports.js';
import { publishStep } from '../steps/publish.js';
import { selectStep } from '../steps/select.js';
import { dateDemoBodies } from '../testing/dated-demo.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { NotChangedSinceError } from './release-freshness.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-freshness-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
const release = join(state, 'release');
const outDir = join(state, 'evaluations');
const SLUGIFY = 'demo-inventory.util.slugify';
const QUOTE = 'demo-inventory.pricing.quote';
const TAKE = 'demo-inventory.warehouse.Bin.take';
// slugify's body holds the line rewritten later; quote's is dated at the first commit; Bin.take is never dated.
const WRITTEN = '2020-03-01T09:00:00Z';
const REWRITTEN = '2025-07-01T12:30:00Z';
const filter = (names: readonly string[]): string => `qualname IN (${names.map((name) => `'${name}'`).join(', ')})`;
let catalog: Catalog;
let baseCommit: string;
let allThree: string;

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  allThree = (await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify', 'quote', 'Bin.take']) }))
    .selectionId;
  await runValidateCommand(catalog, { ...options, selectionId: allThree });
  // Version 1.0 is published before any body is dated, as a version built without --changed-since is.
  await publishStep(catalog, { out: release, version: '1.0', selectionId: allThree, stateRoot: state });
  baseCommit = (await catalog.tasks('demo'))[0]?.baseCommit as string;
  await dateDemoBodies(catalog, state, {
    baseCommit,
    qualnames: ['slugify', 'quote'],
    writtenAt: WRITTEN,
    rewrittenAt: REWRITTEN,
    rewritten: {
      file: 'inventory/util.py',
      now: '    words = re.split(r"[\\W_]+", without_marks.lower())',
      before: '    words = re.split(r"\\W+", without_marks.lower())',
    },
  });
  await publishStep(catalog, { out: release, version: '1.1', selectionId: allThree, stateRoot: state });
}, 900_000);

afterAll(async () => {
  await catalog?.close();
});

describe('a release of a catalog whose bodies are dated', () => {
  it("gives tasks.jsonl each dated task's body commit and date, and nothing else changes", () => {
    const undated = lines(join(release, '1.0', 'tasks.jsonl'));
    const dated = lines(join(release, '1.1', 'tasks.jsonl'));
    expect(undated.some((line) => 'body_commit' in line || 'body_changed_at' in line)).toBe(false);
    const byId = new Map(dated.map((line) => [line.instance_id, line]));
    expect(byId.get(SLUGIFY)).toMatchObject({ body_changed_at: REWRITTEN });
    expect(byId.get(QUOTE)).toMatchObject({ body_changed_at: WRITTEN });
    expect(String(byId.get(SLUGIFY)?.body_commit)).toMatch(/^[0-9a-f]{40}$/);
    expect(byId.get(SLUGIFY)?.body_commit).not.toBe(byId.get(QUOTE)?.body_commit);
    expect(Object.keys(byId.get(TAKE) ?? {})).not.toContain('body_changed_at');
    // Without the body fields, 1.1's lines are 1.0's: a version without dates keeps its bytes.
    const withoutDates = dated.map(({ body_commit: _commit, body_changed_at: _date, ...rest }) => rest);
    expect(withoutDates).toEqual(undated);
  });

  it('has no freshness record nor card section without a cutoff', () => {
    for (const version of ['1.0', '1.1']) expect(existsSync(join(release, version, 'freshness.json'))).toBe(false);
    expect(readFileSync(join(release, 'README.md'), 'utf8')).not.toContain('## Freshness');
  });

  it('refuses a cutoff some released task did not change after, naming each', async () => {
    const publishing = publishStep(catalog, {
      out: release,
      version: '1.9',
      selectionId: allThree,
      changedSince: '2025-01-01T00:00:00Z',
    });
    const error = await publishing.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(NotChangedSinceError);
    const refused = error as NotChangedSinceError;
    expect([refused.code, refused.cutoff]).toEqual(['usage', '2025-01-01T00:00:00Z']);
    expect([...refused.tasks].sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1))).toEqual([
      { instanceId: QUOTE, bodyChangedAt: WRITTEN },
      { instanceId: TAKE, bodyChangedAt: null },
    ]);
    expect(refused.message).toContain(`${QUOTE} (${WRITTEN})`);
    expect(refused.message).toContain(`${TAKE} (never dated)`);
    expect(existsSync(join(release, '1.9'))).toBe(false);
  });

  it('records the cutoff of a fresh version: freshness.json and the card section', async () => {
    const { selectionId } = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify']) });
    const summary = await publishStep(catalog, {
      out: release,
      version: '2.0',
      selectionId,
      changedSince: '2025-01-01T00:00:00Z',
    });
    expect(summary.content?.freshness?.changed_since).toBe('2025-01-01T00:00:00Z');
    const record = JSON.parse(readFileSync(join(release, '2.0', 'freshness.json'), 'utf8'));
    const task = (await catalog.tasks('demo')).find((stored) => stored.instanceId === SLUGIFY);
    expect(record).toMatchObject({
      changed_since: '2025-01-01T00:00:00Z',
      repositories: [
        {
          repository: 'demo',
          repo: task?.repo,
          base_commit: baseCommit,
          tasks: 1,
          oldest_body_changed_at: REWRITTEN,
          newest_body_changed_at: REWRITTEN,
        },
      ],
    });
    expect(record.dated_by).toContain('blame --porcelain -w -M -C');
    const card = readFileSync(join(release, 'README.md'), 'utf8');
    expect(card).toContain('## Freshness');
    expect(card).toContain('written or changed after **2025-01-01T00:00:00Z**');
    expect(card).toContain(
      `| ${task?.repo} | \`${baseCommit.slice(0, 12)}\` | ${record.repositories[0].base_committed_at} | 1 | ` +
        `${REWRITTEN} | ${REWRITTEN} |`,
    );
    expect(card).toContain('`2.0/freshness.json`');
    // The section sits in the card's body, before the statistics.
    expect(card.indexOf('## Freshness')).toBeLessThan(card.indexOf('## Statistics'));
  });
});

describe('evaluate --since on a dated release', () => {
  it('scores only the tasks whose body changed on or after the date, and says what it left out', async () => {
    const since = '2025-07-01T12:30:00Z';
    const run = await runEvaluateCommand(catalog, { ...options, release, version: '1.1', gold: true, outDir, since });
    expect(run.runId).toBe('gold@1.1-since-2025-07-01T12:30:00Z');
    expect(run.since).toEqual({ since, scored: 1, changedBefore: [QUOTE], withoutBodyDate: [TAKE] });
    const [gold] = run.reports;
    expect(gold?.report).toMatchObject({
      total_instances: 1,
      resolved_ids: [SLUGIFY],
      pass_at_1: 1,
      since: {
        date: since,
        scored_instances: 1,
        left_out_instances: 2,
        changed_before_ids: [QUOTE],
        without_body_date_ids: [TAKE],
      },
    });
    const written = JSON.parse(readFileSync(join(outDir, run.runId, 'gold', 'report.json'), 'utf8'));
    expect(written.since).toEqual(gold?.report.since);
    // `evaluate --report RUN_ID` reads the same scope back from the catalog.
    const [stored] = await evaluationReports(catalog, run.runId);
    expect(stored?.report).toEqual(gold?.report);
    expect(reportText(stored?.report ?? (gold?.report as never))).toContain(
      `since ${since}: 1 task(s) scored, whose body changed on or after it; 2 left out (1 changed before it, 1 ` +
        `without a body date)`,
    );
  }, 300_000);

  it('scores a day as its start in UTC, and a run without --since keeps its report as it was', async () => {
    const run = await runEvaluateCommand(catalog, {
      ...options,
      release,
      version: '1.1',
      gold: true,
      outDir,
      since: '2020-03-01T00:00:00Z',
    });
    expect(run.runId).toBe('gold@1.1-since-2020-03-01');
    expect(run.since).toMatchObject({ scored: 2, changedBefore: [], withoutBodyDate: [TAKE] });
    const whole = await runEvaluateCommand(catalog, { ...options, release, version: '1.1', gold: true, outDir });
    expect(whole.since).toBeNull();
    expect(whole.reports[0]?.report.total_instances).toBe(3);
    expect(Object.keys(whole.reports[0]?.report ?? {})).not.toContain('since');
  }, 300_000);

  it('answers a release without body dates, and a date after every body, with a named error', async () => {
    const undated = runEvaluateCommand(catalog, {
      ...options,
      release,
      version: '1.0',
      gold: true,
      outDir,
      since: WRITTEN,
    });
    await expect(undated).rejects.toBeInstanceOf(ChangedSinceError);
    await expect(undated).rejects.toMatchObject({ code: 'usage', problem: 'no-dated-task', value: WRITTEN });
    await expect(undated).rejects.toThrow(/no task of .*release \(version 1\.0\) has a body date/);
    const late = runEvaluateCommand(catalog, {
      ...options,
      release,
      version: '1.1',
      gold: true,
      outDir,
      since: '2025-07-02T00:00:00Z',
    });
    await expect(late).rejects.toMatchObject({ problem: 'no-task-since' });
    await expect(late).rejects.toThrow(`the newest body changed ${REWRITTEN}`);
    expect((await catalog.evaluationRuns()).map((summary) => summary.runId)).not.toContain('gold@1.0-since-2020-03-01');
  });
});
