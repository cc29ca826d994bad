import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';

const folder = makeTempDir();
const db = join(folder.dir, 'catalog.duckdb');
const release = join(folder.dir, 'release');
const out = join(folder.dir, 'evaluations');
const SLUGIFY = 'demo-inventory.util.slugify';
const QUOTE = 'demo-inventory.pricing.quote';
const TAKE = 'demo-inventory.warehouse.Bin.take';
let hub: LoopbackHub;

beforeAll(async () => {
  process.env.REPOCOD_STATE = join(folder.dir, 'state');
  expect(await main(['mine', 'demo', '--db', db], bufferIO())).toBe(0);
  expect(await main(['tasks', 'demo', '--db', db], bufferIO())).toBe(0);
  const spec = join(folder.dir, 'spec.json');
  writeFileSync(spec, JSON.stringify({ filter: "qualname IN ('slugify', 'quote', 'Bin.take')" }));
  expect(await main(['select', '--spec', spec, '--db', db], bufferIO())).toBe(0);
  expect(await main(['validate', '--db', db], bufferIO())).toBe(0);
  hub = await startLoopbackHub();
  process.env.HF_TOKEN = hub.token;
  const publish = ['publish', '--version', '1.0', '--out', release, '--push', 'repocod/demo', '--hub-url', hub.url];
  expect(await main([...publish, '--db', db], bufferIO())).toBe(0);
}, 600_000);

afterAll(async () => {
  await hub.close();
  delete process.env.REPOCOD_STATE;
  delete process.env.HF_TOKEN;
  folder.cleanup();
});

describe('repocod evaluate', () => {
  it('resolves every task of the release on the Hub with its gold patches', { timeout: 300_000 }, async () => {
    const io = bufferIO();
    const args = ['evaluate', '--gold', '--hub', 'repocod/demo', '--hub-url', hub.url, '--out', out, '--db', db];
    expect(await main(args, io), io.stderr()).toBe(0);
    expect(io.stderr()).toMatch(/release repocod\/demo: \d+ file\(s\) downloaded into .*releases\/repocod__demo/);
    expect(io.stdout()).toContain('pass@1 100.0%: 3 of 3 tasks resolved');
    // Graded now, every one from validation's fit runs: the two counts say so, not "evaluated now".
    expect(io.stdout()).toMatch(
      /evaluation gold@1\.0: 3 graded now \(0 with tests run, 3 from stored runs\), 0 kept from an earlier pass/,
    );
    // Validation's fit runs are the gold evaluation's jobs: nothing runs again.
    expect(io.stderr()).toMatch(
      /\ndemo: 3 prediction\(s\): 0 to run on \d+ worker\(s\), 3 graded from stored runs, 0 kept from an earlier/,
    );
    const report = JSON.parse(readFileSync(join(out, 'gold@1.0', 'gold', 'report.json'), 'utf8'));
    expect(report.resolved_ids).toEqual([QUOTE, SLUGIFY, TAKE]);
    const again = bufferIO();
    expect(await main(args, again)).toBe(0);
    expect(again.stderr()).toContain('already downloaded');
    expect(again.stdout()).toMatch(
      /evaluation gold@1\.0: 0 graded now \(0 with tests run, 0 from stored runs\), 3 kept/,
    );
    expect(again.stderr()).toMatch(
      /\ndemo: 3 prediction\(s\): 0 to run .*, 0 graded from stored runs, 3 kept from an earlier pass/,
    );
  });

  it('names each prediction it cannot run, runs the others, and reports from the catalog', {
    timeout: 300_000,
  }, async () => {
    const predictions = join(folder.dir, 'model-a.jsonl');
    writeFileSync(
      predictions,
      [
        JSON.stringify({ instance_id: SLUGIFY, completion: 'return "-".join(text.lower().split())' }),
        JSON.stringify({ instance_id: QUOTE, completion: '' }),
        JSON.stringify({ instance_id: 'demo-nope', completion: 'return 1' }),
        'not json',
      ].join('\n'),
    );
    const io = bufferIO();
    const html = join(folder.dir, 'report.html');
    const args = ['evaluate', '--predictions', predictions, '--release', release, '--out', out, '--html', html];
    expect(await main([...args, '--db', db], io), io.stderr()).toBe(0);
    expect(io.stderr()).toContain(`${predictions}:4: not valid JSON`);
    expect(io.stderr()).toContain(`${predictions}:3 (instance_id): demo-nope is not a task of ${release}`);
    expect(io.stdout()).toContain('2 prediction(s) not evaluated:');
    // The repository's line, then its predictions: the empty one (nothing to run) among them, not before it.
    const lines = io.stderr().split('\n');
    const repositoryLine = lines.findIndex((line) => line.startsWith('demo: 2 prediction(s): 1 to run'));
    const emptyLine = lines.findIndex((line) => line.includes(`${QUOTE}: empty`));
    expect(repositoryLine, io.stderr()).toBeGreaterThan(-1);
    expect(emptyLine, io.stderr()).toBeGreaterThan(repositoryLine);
    expect(io.stdout()).toContain(
      'outcomes: 0 resolved, 1 unresolved, 1 empty, 0 patch failed, 0 timeout, 0 error, 1 without prediction',
    );
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(join(out, 'model-a@1.0', 'model-a', SLUGIFY, 'test_output.txt'), 'utf8')).toMatch(/failed/);

    const report = bufferIO();
    expect(await main(['evaluate', '--report', 'model-a@1.0', '--db', db], report)).toBe(0);
    expect(report.stdout()).toContain('run model-a@1.0 · model model-a');
    expect(report.stdout()).toContain('pass@1 0.0%: 0 of 3 tasks resolved');
    const runs = bufferIO();
    expect(await main(['evaluate', '--runs', '--db', db], runs)).toBe(0);
    expect(runs.stdout()).toMatch(/model-a@1\.0 .* 1 model\(s\), 2 evaluated, 0 resolved/);
    expect(runs.stdout()).toMatch(/gold@1\.0 .* 1 model\(s\), 3 evaluated, 3 resolved/);
  });

  it('refuses what it cannot do, saying why', async () => {
    const both = bufferIO();
    expect(await main(['evaluate', '--gold', '--predictions', 'x.jsonl', '--release', release, '--db', db], both)).toBe(
      2,
    );
    expect(both.stderr()).toContain('give --predictions FILE or --gold (one of them)');
    const missing = bufferIO();
    expect(await main(['evaluate', '--report', 'nope', '--db', db], missing)).toBe(2);
    expect(missing.stderr()).toMatch(/no evaluation run nope in the catalog \(runs: .*gold@1\.0/);
    const noVersion = bufferIO();
    expect(
      await main(['evaluate', '--gold', '--release', release, '--version', '9.9', '--db', db], noVersion),
    ).not.toBe(0);
    expect(noVersion.stderr()).toMatch(/9\.9: no test-\*\.parquet \(version 9\.9\); versions in .*: 1\.0/);
  });
});
