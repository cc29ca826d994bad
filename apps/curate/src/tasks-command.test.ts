import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCatalog } from '@repocod/pipeline';
import { BODY_BLAME_ARGS } from '@repocod/runner';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';
import { demoFixture } from './testing/demo-fixture.js';

/** `repocod tasks`, `select` and `show` on the demo, after a real `repocod mine` (the fixture's). */
describe('repocod tasks, select and show', () => {
  it('builds the demo tasks, selects with a spec and explains, and shows one task', { timeout: 600_000 }, async () => {
    const folder = makeTempDir().dir;
    const db = join(folder, 'catalog.duckdb');
    const early = bufferIO();
    expect(await main(['tasks', 'demo', '--db', db], early)).toBe(2);
    expect(early.stderr()).toMatch(/demo: no mined function with relevant tests .*; run `repocod mine demo` first/);

    // Mined: the demo's catalog from the screens' fixture, where the whole flow ran once for this package.
    copyFileSync(demoFixture().catalogPath, db);
    const templates = join(folder, 'templates.json');
    writeFileSync(
      templates,
      JSON.stringify({ code: 'Implement {qualname} ({level}).\n{prompt}', test: 'Test {qualname}.' }),
    );
    const before = new Date().toISOString().replace('T', ' ').replace('Z', '');
    const tasks = bufferIO();
    // One task (retry) cannot have its body removed without breaking the import: its tests fail at
    // collection without it, which is what its task asks of them; the summary names it.
    expect(await main(['tasks', 'demo', '--db', db, '--templates', templates], tasks)).toBe(0);
    expect(tasks.stdout()).toMatch(/^demo: 52 tasks in /);
    expect(tasks.stdout()).toMatch(
      new RegExp(
        String.raw`checks {5}52 passed .*, 0 failed\n {2}collection 1 task\(s\) need the body while their tests are` +
          String.raw` collected .*: demo-inventory\.util\.retry\n`,
      ),
    );
    // The command records the stage's wall time, as a flow run does (`repocod record` reports it).
    const timed = bufferIO();
    const stageQuery =
      `select count(*) as n from stage_times where repository = 'demo' and stage = 'tasks' and ` +
      `finished_at >= '${before}'`;
    expect(await main(['sql', stageQuery, '--db', db], timed)).toBe(0);
    expect(timed.stdout()).toMatch(/^n\n-+\n *1\n/);

    const spec = join(folder, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({ quotas: { 'self-contained': 3, 'file-level': 3, 'repo-level': 3 }, filter: 'cc >= 2' }),
    );
    const select = bufferIO();
    expect(await main(['select', '--spec', spec, '--explain', '--db', db], select)).toBe(0);
    const out = select.stdout();
    expect(out).toMatch(/^selection [0-9a-f]{16}: 9 tasks; score prompt_lines \* solution_lines; filter cc >= 2/);
    expect(out).toMatch(/self-contained\s+3\/3 picked of \d+; cut-off score \d+ \(best left out \d+\)/);
    expect(out.match(/^ {4}(self-contained|file-level|repo-level) +[123] /gm)).toHaveLength(9);

    const show = bufferIO();
    expect(await main(['show', 'demo-inventory.warehouse.Bin.take', '--db', db], show)).toBe(0);
    expect(show.stdout()).toContain('level        repo-level, because it uses:');
    expect(show.stdout()).toMatch(/inventory\/errors\.py:\d+, via import/);
    expect(show.stdout()).toContain(
      '--- pre_patches.code ---\ndiff --git a/inventory/warehouse.py b/inventory/warehouse.py',
    );
    const sql = bufferIO();
    expect(
      await main(
        ['sql', "select problem_code from tasks where qualname = 'Bin.take'", '--db', db, '--width', '400'],
        sql,
      ),
    ).toBe(0);
    expect(sql.stdout()).toContain('Implement Bin.take (repo-level).');

    // Every mode's label with the calls behind it; select --levels re-labels from the catalog.
    expect(show.stdout()).toContain('  levels       under each mode');
    expect(show.stdout()).toMatch(/^ {4}repocod-v1 {2}(self-contained|file-level|repo-level) /m);
    expect(show.stdout()).toMatch(/^ {4}deps {8}repo-level {6}\(current\) \d+ use\(s\) counted:$/m);
    const v1 = bufferIO();
    expect(await main(['select', '--spec', spec, '--levels', 'repocod-v1', '--db', db], v1)).toBe(0);
    expect(v1.stdout()).toMatch(/^selection [0-9a-f]{16}: 9 tasks; .*; levels repocod-v1\n/);
    const relabelled = bufferIO();
    expect(await main(['show', 'demo-inventory.util.slugify', '--db', db], relabelled)).toBe(0);
    expect(relabelled.stdout()).toMatch(/^ {2}level {8}(self-contained|file-level|repo-level) under repocod-v1/m);
    const unknownMode = bufferIO();
    expect(await main(['select', '--levels', 'v1', '--db', db], unknownMode)).toBe(2);
    expect(unknownMode.stderr()).toMatch(/--levels: unknown level mode "v1" \(known: repocod-v1, repocod-v4, deps\)/);

    const missing = bufferIO();
    expect(await main(['show', 'demo-inventory.warehouse.Bin.tak', '--db', db], missing)).toBe(2);
    expect(missing.stderr()).toMatch(/no task demo-inventory\.warehouse\.Bin\.tak in the catalog/);

    // A body blame could date only as an upper bound (a clone that lacks blobs blame reads) says so.
    const dated = await openCatalog(db);
    try {
      const take = await dated.task('demo-inventory.warehouse.Bin.take');
      if (take === null) throw new Error('no Bin.take task');
      const key = { repository: 'demo', baseCommit: take.baseCommit, blameArgs: BODY_BLAME_ARGS.join(' ') };
      await dated.saveBodyHistory(key, [
        { functionId: take.functionId, bodyCommit: 'c'.repeat(40), bodyChangedAt: null },
      ]);
    } finally {
      await dated.close();
    }
    const undated = bufferIO();
    expect(await main(['show', 'demo-inventory.warehouse.Bin.take', '--db', db], undated)).toBe(0);
    expect(undated.stdout()).toContain(`  body         undated: ${'c'.repeat(12)} or older; never counted as changed`);

    // Another era of the demo beside it (as --at demo=REF keeps one: catalog-name.ts): an id without the era
    // shows the task of each commit, oldest first; with it, that era's alone.
    const era = 'b'.repeat(12);
    const catalog = await openCatalog(db);
    try {
      const take = await catalog.task('demo-inventory.warehouse.Bin.take');
      if (take === null) throw new Error('no Bin.take task');
      await catalog.replaceTasks(`demo@${era}`, [
        {
          ...take,
          instanceId: `${take.instanceId}@${era}`,
          repository: `demo@${era}`,
          baseCommit: 'b'.repeat(40),
          baseCommitTimestamp: '2099-01-01T00:00:00+00:00',
        },
      ]);
    } finally {
      await catalog.close();
    }
    const both = bufferIO();
    expect(await main(['show', 'demo-inventory.warehouse.Bin.take', '--db', db], both)).toBe(0);
    const heads = both.stdout().match(/^demo-inventory\.warehouse\.Bin\.take\S*$/gm);
    expect(heads).toEqual(['demo-inventory.warehouse.Bin.take', `demo-inventory.warehouse.Bin.take@${era}`]);
    expect(both.stdout()).toContain(`  repository   demo at ${era} (2099-01-01T00:00:00+00:00)`);
    const one = bufferIO();
    expect(await main(['show', `demo-inventory.warehouse.Bin.take@${era}`, '--db', db], one)).toBe(0);
    expect(one.stdout().match(/^demo-inventory\.warehouse\.Bin\.take\S*$/gm)).toEqual([
      `demo-inventory.warehouse.Bin.take@${era}`,
    ]);
  });
});
