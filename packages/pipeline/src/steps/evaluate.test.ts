import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvaluateCommand } from '../commands/evaluate.js';
import { runPromptsCommand } from '../commands/prompts.js';
import type { PromptSetting, TaskPrompt } from '@repocod/prompts';
import { PROMPT_SETTINGS } from '@repocod/prompts';
import type { StandInModel } from '../testing/stand-in-models.js';
import { goldBody, STAND_IN_MODELS } from '../testing/stand-in-models.js';
import { readRelease } from '@repocod/publish';
import { evaluationReports } from '../reports/evaluation-reports.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { publishStep } from './publish.js';
import { selectStep } from './select.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-evaluate-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
const release = join(state, 'release');
const outDir = join(state, 'evaluations');
const QUOTE = 'demo-inventory.pricing.quote';
const HASHING_EMBEDDER = join(PROJECT_ROOT, 'packages/pipeline/src/testing/hashing-embedder.py');
const SLUGIFY = 'demo-inventory.util.slugify';
let catalog: Catalog;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  const { selectionId } = await selectStep(catalog, {
    ...REPOCOD_LITE_SPEC,
    filter: "qualname IN ('slugify', 'quote')",
  });
  await runValidateCommand(catalog, { ...options, selectionId });
  await publishStep(catalog, { out: release, version: '1.0', selectionId, stateRoot: state });
}, 600_000);

afterAll(async () => {
  await catalog?.close();
});

const SLUGIFY_BODY = `decomposed = unicodedata.normalize("NFKD", text)
without_marks = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
words = re.split(r"[\\W_]+", without_marks.lower())
return sep.join(word for word in words if word)
`;

/**
 * slugify's gold body in each shape a model's output takes (docs/evaluate.md has the table): what each insertion
 * mode makes of it on the demo, with real pytest.
 */
function outputShapes(): Record<string, string> {
  const source = readFileSync(join(PROJECT_ROOT, 'datasets/demo/inventory/util.py'), 'utf8');
  const prompt = /def slugify\(text, sep="-"\):\n[\s\S]*?"""\n[\s\S]*?"""\n/.exec(source)?.[0] ?? '';
  const indented = (body: string, indent: string): string =>
    body
      .split('\n')
      .map((row) => (row === '' ? '' : `${indent}${row}`))
      .join('\n');
  const continuation = indented(SLUGIFY_BODY, '    ');
  return {
    continuation,
    dedented: SLUGIFY_BODY,
    'whole-def': `def slugify(text, sep="-"):\n${continuation}`,
    'prompt-repeated': `${prompt}${continuation}`,
    'decorated-def': `@functools.lru_cache(maxsize=None)\ndef slugify(text, sep="-"):\n${continuation}`,
    'closing-fence': `${continuation}\`\`\`\n`,
    'leading-blank-line': `\n${continuation}`,
    'prose-and-fence': `Here is the body:\n\`\`\`python\n${continuation}\`\`\`\nIt drops the accents first.\n`,
    tabs: indented(SLUGIFY_BODY, '\t'),
    'no-final-newline': continuation.trimEnd(),
  };
}

describe('runEvaluateCommand on the demo release', () => {
  it('resolves every task with the gold patches, and answers a rerun from the catalog', async () => {
    const gold = await runEvaluateCommand(catalog, { ...options, release, gold: true, outDir });
    expect(gold.runId).toBe('gold@1.0');
    expect(gold.reports.map(({ model, report }) => [model, report.resolved_ids, report.pass_at_1])).toEqual([
      ['gold', [QUOTE, SLUGIFY], 1],
    ]);
    expect(gold.evaluatedNow).toBe(2);
    const again = await runEvaluateCommand(catalog, { ...options, release, gold: true, outDir });
    expect([again.evaluatedNow, again.fromCatalog]).toEqual([0, 2]);
    const results = JSON.parse(readFileSync(join(outDir, 'gold@1.0', 'gold', SLUGIFY, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ outcome: 'resolved', failing_tests: [] });
    expect(results.tests.length).toBeGreaterThan(0);
  }, 600_000);

  it('gives each kind of prediction its own outcome, and names what it cannot run', async () => {
    const predictions = join(state, 'preds.jsonl');
    const line = (record: object): string => JSON.stringify(record);
    writeFileSync(
      predictions,
      [
        line({ instance_id: SLUGIFY, model_name_or_path: 'right', completion: SLUGIFY_BODY }),
        line({ instance_id: QUOTE, model_name_or_path: 'right', completion: 'return None' }),
        line({ instance_id: SLUGIFY, model_name_or_path: 'empty', model_patch: '' }),
        line({
          instance_id: QUOTE,
          model_name_or_path: 'empty',
          model_patch:
            'diff --git a/inventory/pricing.py b/inventory/pricing.py\n--- a/inventory/pricing.py\n' +
            '+++ b/inventory/pricing.py\n@@ -1,1 +1,1 @@\n-no such line\n+x\n',
        }),
        line({ instance_id: SLUGIFY, model_name_or_path: 'syntax', completion: 'return sep.join(\n' }),
        line({ instance_id: 'demo-nope', model_name_or_path: 'syntax', completion: 'return 1' }),
        '{"instance_id": broken',
      ].join('\n'),
    );
    const summary = await runEvaluateCommand(catalog, { ...options, release, predictions, outDir });
    expect(summary.runId).toBe('preds@1.0');
    expect(summary.problems.map((problem) => [problem.source, problem.field])).toEqual([
      [`${predictions}:7`, null],
      [`${predictions}:6`, 'instance_id'],
    ]);
    const outcomes = (await catalog.evaluations('preds@1.0')).map((row) => [row.model, row.instanceId, row.outcome]);
    expect(outcomes).toEqual([
      ['empty', QUOTE, 'patch-failed'],
      ['empty', SLUGIFY, 'empty'],
      ['right', QUOTE, 'unresolved'],
      ['right', SLUGIFY, 'resolved'],
      ['syntax', SLUGIFY, 'unresolved'],
    ]);
    const reports = await evaluationReports(catalog, 'preds@1.0');
    const syntax = reports.find((report) => report.model === 'syntax');
    expect(syntax?.report).toMatchObject({ total_instances: 2, incomplete_ids: [QUOTE], pass_at_1: 0 });
    expect(syntax?.rows.find((row) => row.instanceId === SLUGIFY)?.detail).toMatch(/collection error|do not pass/);
    const applied = readFileSync(join(outDir, 'preds@1.0', 'right', SLUGIFY, 'model.patch'), 'utf8');
    expect(applied).toContain('+    decomposed = unicodedata.normalize("NFKD", text)');
    expect(reports.find((report) => report.model === 'right')?.report.by_level.length).toBeGreaterThan(0);
  }, 600_000);
  it("scores each shape of output under both insertion modes, REPOCOD's verbatim and the lenient one", async () => {
    const predictions = join(state, 'shapes.jsonl');
    const shapes = outputShapes();
    writeFileSync(
      predictions,
      Object.entries(shapes)
        .map(
          ([shape, completion]) =>
            `${JSON.stringify({ instance_id: SLUGIFY, model_name_or_path: shape, completion })}\n`,
        )
        .join(''),
    );
    const outcomes = async (insertion: 'lenient' | 'repocod'): Promise<Record<string, string>> => {
      const exitFirst = insertion === 'repocod';
      const summary = await runEvaluateCommand(catalog, {
        ...options,
        release,
        predictions,
        outDir,
        insertion,
        exitFirst,
      });
      expect(summary.runId).toBe(insertion === 'repocod' ? 'shapes@1.0-insert-repocod' : 'shapes@1.0');
      const [report] = summary.reports;
      expect(report?.report.insertion).toBe(insertion === 'repocod' ? 'repocod' : undefined);
      const rows = await catalog.evaluations(summary.runId);
      return Object.fromEntries(rows.map((row) => [row.model, row.outcome]));
    };
    expect(await outcomes('lenient')).toEqual(
      Object.fromEntries(Object.keys(shapes).map((shape) => [shape, 'resolved'])),
    );
    expect(await outcomes('repocod')).toEqual({
      continuation: 'resolved',
      dedented: 'unresolved',
      'whole-def': 'resolved',
      'prompt-repeated': 'resolved',
      // After the prompt at column 0 it ends slugify and defines it again, decorated: the tests call the new one.
      'decorated-def': 'resolved',
      'closing-fence': 'unresolved',
      'leading-blank-line': 'resolved',
      'prose-and-fence': 'unresolved',
      tabs: 'unresolved',
      'no-final-newline': 'resolved',
    });
  }, 600_000);

  it('closes the loop: prompts of each setting, stand-in models, evaluate under both insertions', async () => {
    const { tasks } = readRelease(release, '1.0');
    const goldOf = (id: string): string => tasks.find((task) => task.instanceId === id)?.goldCode ?? '';
    const passAt1: Record<string, number> = {};
    const promptsOf: Record<string, readonly TaskPrompt[]> = {};
    for (const setting of PROMPT_SETTINGS) {
      const out = join(state, `prompts-${setting}.jsonl`);
      const embedCommand = setting === 'dense' ? `python3 ${HASHING_EMBEDDER}` : undefined;
      const written = await runPromptsCommand({ ...options, release, setting, out, modelContext: 2048, embedCommand });
      promptsOf[setting] = written.prompts;
      expect(written.prompts.map((prompt) => prompt.instance_id)).toEqual([QUOTE, SLUGIFY]);
      expect(
        readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(written.prompts);
      for (const prompt of written.prompts) {
        // No prompt carries its own solution: not the body, nor any of its lines.
        const body = goldBody(goldOf(prompt.instance_id));
        expect(body.length).toBeGreaterThan(0);
        expect(prompt.input).not.toContain(body.trim());
        for (const line of body.split('\n').filter((row) => row.trim().length > 12))
          expect(prompt.input).not.toContain(line.trim());
        expect(prompt.input.startsWith(`${prompt.system_prompt}\n`)).toBe(true);
        expect(prompt.tokens.input).toBeLessThanOrEqual(2048);
      }
      // Every model for the settings of the paper's first two columns; the gold and the fenced one for the rest,
      // whose outputs are scored the same way (insertion reads the file, never the prompt).
      const models = setting === 'baseline' || setting === 'current-file' ? Object.keys(STAND_IN_MODELS) : ['gold'];
      for (const model of models) {
        const answer = STAND_IN_MODELS[model] as StandInModel;
        const file = join(state, `${setting}-${model}.json`);
        const records = Object.fromEntries(
          written.prompts.map((prompt, index) => [
            String(index),
            {
              function_name: prompt.function_name,
              prompt: prompt.prompt,
              output: answer(prompt, goldOf(prompt.instance_id)),
            },
          ]),
        );
        // REPOCOD's form, keyed as a prompt names its repository.
        expect(written.prompts.map((prompt) => prompt.repository)).toEqual(['demo', 'demo']);
        writeFileSync(file, JSON.stringify({ [written.prompts[0]?.repository ?? '']: records }));
        for (const insertion of ['lenient', 'repocod'] as const) {
          const summary = await runEvaluateCommand(catalog, {
            ...options,
            release,
            predictions: file,
            outDir,
            insertion,
            exitFirst: insertion === 'repocod',
          });
          expect(summary.problems).toEqual([]);
          passAt1[`${setting} ${model} ${insertion}`] = summary.reports[0]?.report.pass_at_1 ?? -1;
        }
      }
    }
    expect(passAt1).toEqual({
      'baseline gold lenient': 1,
      'baseline gold repocod': 1,
      'baseline pass lenient': 0,
      'baseline pass repocod': 0,
      'baseline fence-wrapped lenient': 1,
      'baseline fence-wrapped repocod': 0,
      'current-file gold lenient': 1,
      'current-file gold repocod': 1,
      'current-file pass lenient': 0,
      'current-file pass repocod': 0,
      'current-file fence-wrapped lenient': 1,
      'current-file fence-wrapped repocod': 0,
      'bm25 gold lenient': 1,
      'bm25 gold repocod': 1,
      'dense gold lenient': 1,
      'dense gold repocod': 1,
      'callees gold lenient': 1,
      'callees gold repocod': 1,
    });
    // What each setting gives before the target, from the demo's own functions.
    const quote = (setting: PromptSetting): TaskPrompt =>
      promptsOf[setting]?.find((prompt) => prompt.instance_id === QUOTE) as TaskPrompt;
    const given = (setting: PromptSetting): string[] =>
      (quote(setting).functions ?? []).map((fn) => `${fn.file_path}::${fn.function_name}`);
    expect(given('callees')).toEqual(
      expect.arrayContaining([
        'inventory/util.py::round_money',
        'inventory/pricing.py::coupon_discount',
        'inventory/pricing.py::compute_tax',
      ]),
    );
    // The last tokens of the file before the target: coupon_discount's end, never anything of quote's body.
    expect(quote('callees').context?.before).toContain('def coupon_discount(code, subtotal):');
    expect(quote('callees').context?.after).toBe('');
    for (const setting of ['bm25', 'dense'] as const) {
      expect(given(setting)).toHaveLength(5);
      expect(given(setting)).not.toContain('inventory/pricing.py::quote');
      const retrieval = quote(setting).retrieval;
      expect(
        retrieval !== null && 'left_out' in retrieval
          ? retrieval.left_out.find((fn) => fn.reason === 'the target')
          : null,
      ).toEqual({ file: 'inventory/pricing.py', qualname: 'quote', defLine: 284, reason: 'the target' });
      // The tests the task's pre state removes are not in its corpus: none is given, and each is counted as left out.
      const removedTests = new Set(
        (tasks.find((task) => task.instanceId === QUOTE)?.failToPass ?? []).map((test) =>
          (test.split('::').at(-1) ?? '').replace(/\[.*$/, ''),
        ),
      );
      expect(removedTests.size).toBeGreaterThan(0);
      for (const fn of quote(setting).functions ?? []) expect(removedTests.has(fn.function_name)).toBe(false);
      expect(retrieval !== null && 'tests_left_out' in retrieval ? retrieval.tests_left_out : 0).toBe(
        removedTests.size,
      );
      const scores = (quote(setting).functions ?? []).map((fn) => fn.score ?? 0);
      expect(scores).toEqual([...scores].sort((a, b) => a - b));
    }
    expect(quote('dense').retrieval).toMatchObject({ method: 'dense', command: `python3 ${HASHING_EMBEDDER}` });
  }, 900_000);

  it('ships prompts inside the release, named in its card', async () => {
    const shipped = await runPromptsCommand({ ...options, release, setting: 'bm25', out: { into: 'release' } });
    expect(shipped.file).toBe(join(release, '1.0/prompts/bm25.jsonl'));
    const card = readFileSync(join(release, 'README.md'), 'utf8');
    expect(card).toContain('config_name: 1.0-prompts-bm25');
    expect(card).toContain('| `1.0-prompts-bm25` | bm25 | `1.0/prompts/bm25.jsonl` | 2 | cl100k | none |');
    expect(readRelease(release, '1.0').tasks).toHaveLength(2);
  }, 600_000);

  it("matches REPOCOD's output by function name and runs its whole definitions", async () => {
    const predictions = join(state, 'repocod-model.json');
    const slugify = `def slugify(text, sep="-"):\n${SLUGIFY_BODY.split('\n')
      .map((row) => (row === '' ? '' : `    ${row}`))
      .join('\n')}`;
    writeFileSync(
      predictions,
      JSON.stringify({
        demo: {
          '0': { function_name: 'util.slugify', prompt: null, output: slugify },
          '1': { function_name: 'no_such_function', output: 'return 1' },
        },
      }),
    );
    const summary = await runEvaluateCommand(catalog, { ...options, release, predictions, outDir });
    expect(summary.problems.map((problem) => problem.message)).toEqual(['no task of demo is named no_such_function']);
    expect((await catalog.evaluations(summary.runId)).map((row) => [row.model, row.instanceId, row.outcome])).toEqual([
      ['repocod-model', SLUGIFY, 'resolved'],
    ]);
  }, 600_000);
});
