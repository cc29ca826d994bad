import { type TaskDetail, taskDetail } from '@repocod/pipeline';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { frameLines, KEY, overlong, pageThrough, press } from '../testing/ink-test-support.js';
import { TASK_KEYS, TaskScreen } from './task-screen.js';

/**
 * The task screen over real tasks of the demo: a repo-level one that passed, and ensure_non_negative, which
 * fails validation by REPOCOD's rule (every one of its tests passes with the body removed).
 */
const details = new Map<string, TaskDetail>();

beforeAll(async () => {
  const catalog = await openDemoCatalog();
  try {
    for (const id of [
      'demo-inventory.pricing.quote',
      'demo-inventory.util.ensure_non_negative',
      'demo-inventory.pricing.percent_off',
      'demo-inventory.util.retry',
    ]) {
      const detail = await taskDetail(catalog, id);
      if (detail !== null) details.set(id, detail);
    }
  } finally {
    await catalog.close();
  }
});

function detailOf(id: string): TaskDetail {
  const detail = details.get(id);
  if (detail === undefined) throw new Error(`the demo catalog has no task ${id}`);
  return detail;
}

function screen(id: string, width = 80, height = 24): ReturnType<typeof render> {
  return render(<TaskScreen detail={detailOf(id)} width={width} height={height} active />);
}

describe('TaskScreen', () => {
  it('heads a repo-level task with its level and the dependencies that gave it', () => {
    const { lastFrame } = screen('demo-inventory.pricing.quote');
    const lines = frameLines(lastFrame());
    expect(lines[0]).toBe('[1 task] 2 prompt  3 patches  4 validation  demo-inventory.pricing.quote');
    expect(lines).toContain('demo-inventory.pricing.quote');
    expect(lines).toContain('repository  demo @ ebfa15c30bcd (2024-01-01T00:00:00+00:00)');
    expect(lines).toContain('function    inventory/pricing.py::quote');
    expect(lines).toContain('level       repo-level, because it uses:');
    expect(lines).toContain('    PricingError → class PricingError (inventory/errors.py:31, via import)');
    expect(lines).toContain('    round_money → function round_money (inventory/util.py:14, via import)');
    expect(lines).toContain('lengths     prompt 25 lines / 193 tokens · solution 29 lines / 249 tokens · cc 8');
    expect(lines).toContain('checks      patch checks passed');
    expect(lines).toContain('validation  passed');
    expect(lines).toContain('FAIL_TO_PASS (10)');
    expect(lines).toHaveLength(24);
    expect(lines.at(-1)).toMatch(/^── lines 1-22 of \d+ \(\d+%\) ─+$/u);
    expect(overlong(lastFrame(), 80)).toEqual([]);
  });

  it('says a self-contained task uses nothing of the repository', () => {
    const { lastFrame } = screen('demo-inventory.pricing.percent_off');
    expect(frameLines(lastFrame())).toContain(
      'level       self-contained (uses no function or class of the repository)',
    );
  });

  it('shows the FAIL_TO_PASS tests, the prompt, and the patches as diffs', async () => {
    const rendered = screen('demo-inventory.pricing.quote');
    const lines = (await pageThrough(rendered)).flatMap(frameLines);
    expect(lines).toContain('  tests/test_pricing.py::TestQuote::test_rejects_non_items');
    expect(lines).toContain('def quote(lines, region, coupon=None):');
    expect(lines).toContain('    """Price a basket: line totals, coupon discount, tax and grand total.');
    expect(lines).toContain('pre_patches.code: removes the body');
    expect(lines).toContain('diff --git a/inventory/pricing.py b/inventory/pricing.py');
    expect(lines).toContain('@@ -306,32 +306,3 @@');
    expect(lines).toContain('-    lines = list(lines)');
    expect(lines).toContain('gold_patches.code: puts it back');
    expect(lines).toContain('+    lines = list(lines)');
    expect(lines).toContain('+    tax = compute_tax(subtotal - discount, region)');
    expect(lines).toContain('pre_patches.test: removes the FAIL_TO_PASS tests');
    expect(lines.filter((row) => row.startsWith('-')).length).toBeGreaterThan(29);
    expect(lines.filter((row) => row.startsWith('+')).length).toBeGreaterThan(29);
    expect(lines).toContain('✓ passes-with-gold   passed      all 10 test(s) pass in each of 3 baseline run(…');
  });

  it('jumps between sections with 1-4 and Tab, naming the section in view', async () => {
    const rendered = screen('demo-inventory.pricing.quote');
    await press(rendered.stdin, '2');
    let lines = frameLines(rendered.lastFrame());
    expect(lines[0]).toMatch(/^ 1 task \[2 prompt\] 3 patches /u);
    expect(lines[1]).toMatch(/^── 2 prompt ─+$/u);
    expect(lines[2]).toBe('def quote(lines, region, coupon=None):');
    await press(rendered.stdin, KEY.tab);
    lines = frameLines(rendered.lastFrame());
    expect(lines[1]).toMatch(/^── 3 patches ─+$/u);
    expect(lines[2]).toBe('pre_patches.code: removes the body');
    // The validation is the last section: it cannot come to the top, the tabs still name it.
    await press(rendered.stdin, '4');
    lines = frameLines(rendered.lastFrame());
    expect(lines[0]).toMatch(/\[4 validation\]/u);
    expect(lines).toContain('✓ collects           passed      the pre state collects');
    await press(rendered.stdin, KEY.tab);
    expect(frameLines(rendered.lastFrame())[0]).toMatch(/^\[1 task\]/u);
    await press(rendered.stdin, '\u001B[Z');
    expect(frameLines(rendered.lastFrame())[0]).toMatch(/\[4 validation\]/u);
    await press(rendered.stdin, KEY.home);
    expect(frameLines(rendered.lastFrame())[0]).toMatch(/^\[1 task\]/u);
    expect(overlong(rendered.lastFrame(), 80)).toEqual([]);
  });

  it('shows a failed validation: each check, its detail and the tests concerned', async () => {
    const rendered = screen('demo-inventory.util.ensure_non_negative');
    await press(rendered.stdin, '4');
    const lines = frameLines(rendered.lastFrame());
    expect(lines.find((row) => row.startsWith('status'))).toMatch(
      /^status {6}failed · \d{4}-\d\d-\d\d \d\d:\d\d · python 3\.\d+\.\d+ · 3 gold run\(s\) · [\d.]+ s$/u,
    );
    expect(lines).toContain('✓ collects           passed      the pre state collects');
    expect(lines).toContain('✗ fails-without-body failed      no FAIL_TO_PASS test fails without the body (4…');
    expect(lines).toContain('    tests/test_util.py::test_ensure_non_negative_names_what_it_counts (passed)');
    expect(lines).toContain('✓ passes-with-gold   passed      all 4 test(s) pass in each of 3 baseline run(s…');
    expect(overlong(rendered.lastFrame(), 80)).toEqual([]);
  });

  it('shows a task whose patch checks failed, never validated', async () => {
    // No demo task fails its checks any more (retry's body is needed while its tests are collected, which
    // the collect check accepts): retry as the tasks stage judged it before, from its real collect log.
    const retry = detailOf('demo-inventory.util.retry');
    const message =
      "the pre state does not collect (collection-error):\nE   TypeError: 'NoneType' object is not callable";
    const failed: TaskDetail = {
      ...retry,
      task: { ...retry.task, checksPassed: false },
      checkMessages: [message],
      validation: null,
      checks: [],
    };
    const rendered = render(<TaskScreen detail={failed} width={120} height={30} active />);
    const lines = frameLines(rendered.lastFrame());
    expect(lines).toContain('checks      patch checks FAILED:');
    expect(lines).toContain('    the pre state does not collect (collection-error):');
    expect(lines).toContain("    E   TypeError: 'NoneType' object is not callable");
    expect(lines).toContain('validation  not-validated');
    await press(rendered.stdin, '4');
    expect(frameLines(rendered.lastFrame())).toContain(
      'not validated yet: the validate stage judges the selected tasks',
    );
  });

  it('keeps every line within the width at 80 while scrolling through', async () => {
    const frames = await pageThrough(screen('demo-inventory.util.ensure_non_negative'));
    expect(frames.length).toBeGreaterThan(5);
    for (const frame of frames) expect(overlong(frame, 80)).toEqual([]);
  });

  it('names its keys for the help bar', () => {
    expect(TASK_KEYS.map((entry) => entry.key)).toEqual(expect.arrayContaining(['Tab/1-4']));
  });
});
