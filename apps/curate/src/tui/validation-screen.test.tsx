import { type Catalog, runLog, type ValidationOverview, validationOverview } from '@repocod/pipeline';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { frameLines, KEY, overlong, pageThrough, press, tick } from '../testing/ink-test-support.js';
import { VALIDATION_KEYS, ValidationScreen } from './validation-screen.js';

/**
 * The validation screen over the demo's selection: 52 tasks, one failed (util.ensure_non_negative, whose
 * tests all pass when its body is removed), logs read from the catalog.
 */
let catalog: Catalog | null = null;
let overview: ValidationOverview = { selectionId: null, entries: [] };

beforeAll(async () => {
  catalog = await openDemoCatalog();
  overview = await validationOverview(catalog);
});

afterAll(async () => {
  await catalog?.close();
});

function screen(
  width = 80,
  height = 24,
): ReturnType<typeof render> & { loadLog: ReturnType<typeof vi.fn<(runId: string) => Promise<string | null>>> } {
  const loadLog = vi.fn((runId: string) => (catalog === null ? Promise.resolve(null) : runLog(catalog, runId)));
  return {
    ...render(<ValidationScreen overview={overview} width={width} height={height} active loadLog={loadLog} />),
    loadLog,
  };
}

/** The list's rows (after the two summary rows and a blank one). */
function rows(frame: string | undefined): string[] {
  return frameLines(frame)
    .slice(3)
    .filter((row) => row.trim() !== '');
}

describe('ValidationScreen', () => {
  it('sums up the selection and lists its failure first', () => {
    const { lastFrame } = screen();
    const lines = frameLines(lastFrame());
    expect(lines[0]).toMatch(/^selection [0-9a-f]{16} · 52 tasks$/u);
    expect(lines[1]).toBe('51 passed · 1 failed · 0 infra-error · 0 not validated · 0 flaky test(s)');
    const listed = rows(lastFrame());
    expect(listed).toHaveLength(21);
    expect(listed.slice(1).every((row) => /^[› ] ✓ passed /u.test(row))).toBe(true);
    // 80 columns cut the id's start.
    expect(listed[0]).toBe('› ✗ failed …-inventory.util.ensure_non_negative fails-without-body: no FAIL_TO_…');
    expect(lines).toHaveLength(24);
    expect(overlong(lastFrame(), 80)).toEqual([]);
  });

  it('scrolls the list to its end', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, KEY.end);
    expect(rows(lastFrame()).at(-1)).toMatch(/^› ✓ passed demo-inventory\.warehouse\.restock_all /u);
    await press(stdin, KEY.pageUp, KEY.home);
    expect(rows(lastFrame())[0]).toMatch(/^› ✗ failed …-inventory\.util\.ensure_non_negative /u);
  });

  it("opens a failure: each check with its tests, and the end of the failed check's log", async () => {
    const onFailureView = vi.fn();
    const loadLog = vi.fn((runId: string) => (catalog === null ? Promise.resolve(null) : runLog(catalog, runId)));
    const rendered = render(
      <ValidationScreen
        overview={overview}
        width={80}
        height={24}
        active
        loadLog={loadLog}
        onFailureView={onFailureView}
      />,
    );
    // The mount's own call (false) and Ink's key handler come in effects: let them run before the key.
    await tick();
    await press(rendered.stdin, KEY.enter);
    await vi.waitFor(() => expect(onFailureView).toHaveBeenLastCalledWith(true));
    const lines = frameLines(rendered.lastFrame());
    expect(lines[0]).toBe('Esc ‹ demo-inventory.util.ensure_non_negative  ✗ failed');
    expect(lines).toContain('✓ collects           passed      the pre state collects');
    expect(lines).toContain('✗ fails-without-body failed      no FAIL_TO_PASS test fails without the body (4…');
    // Its 4 tests, each passing without the body (the longer names are cut at 80 columns).
    expect(lines.filter((row) => row.startsWith('    tests/test_util.py::test_ensure_non_negative_'))).toHaveLength(4);
    expect(lines).toContain('    tests/test_util.py::test_ensure_non_negative_names_what_it_counts (passed)');
    expect(lines.find((row) => row.startsWith('── end of the log'))).toMatch(
      /^── end of the log of fails-without-body · f: whole log · run [0-9a-f]{12}:1$/u,
    );
    const tail = (await pageThrough(rendered)).flatMap(frameLines);
    // pytest's own summary: every test of the task passed without the body.
    expect(tail.some((row) => /^=+ 4 passed, \d+ deselected in /u.test(row))).toBe(true);
    expect(loadLog).not.toHaveBeenCalled();

    await press(rendered.stdin, KEY.escape);
    await vi.waitFor(() => expect(onFailureView).toHaveBeenLastCalledWith(false));
    expect(frameLines(rendered.lastFrame())[1]).toBe(
      '51 passed · 1 failed · 0 infra-error · 0 not validated · 0 flaky test(s)',
    );
  });

  it('loads the whole log of the failed run with f and scrolls through it', async () => {
    const { lastFrame, stdin, loadLog } = screen();
    await press(stdin, KEY.enter);
    // The failure view takes keys once its own handler is attached (an effect after its first frame).
    await vi.waitFor(() => expect(frameLines(lastFrame())[0]).toMatch(/^Esc ‹ /u));
    await tick();
    await press(stdin, 'f');
    const failed = overview.entries[0]?.checks.find((check) => check.status === 'failed');
    await vi.waitFor(() => expect(loadLog).toHaveBeenCalledWith(failed?.runIds[0]));
    await vi.waitFor(() => {
      expect(frameLines(lastFrame()).some((row) => row.startsWith('── whole log'))).toBe(true);
    });
    const lines = frameLines(lastFrame());
    expect(lines.find((row) => row.startsWith('── whole log'))).toMatch(
      /^── whole log of fails-without-body · \d+ lines · run [0-9a-f]{12}:1$/u,
    );
    // The whole log, from the start of pytest's output.
    expect(lines.some((row) => /^=+ test session starts =+$/u.test(row))).toBe(true);
    const frames = await pageThrough({ stdin, lastFrame });
    expect(frames.flatMap(frameLines).some((row) => /^=+ 4 passed, \d+ deselected in /u.test(row))).toBe(true);
    for (const frame of frames) expect(overlong(frame, 80)).toEqual([]);
  });

  it('goes back to the task it left and opens another', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, KEY.down, KEY.down, KEY.enter);
    expect(frameLines(lastFrame())[0]).toBe('Esc ‹ demo-inventory.models.Item.display_name  ✓ passed');
    await press(stdin, KEY.escape);
    expect(rows(lastFrame())[2]).toMatch(/^› ✓ passed …-inventory\.models\.Item\.display_name /u);
    await press(stdin, KEY.end, KEY.enter);
    const lines = frameLines(lastFrame());
    expect(lines[0]).toBe('Esc ‹ demo-inventory.warehouse.restock_all  ✓ passed');
    expect(lines).toContain('✓ passes-with-gold   passed      all 4 test(s) pass in each of 3 baseline run(s…');
  });

  it('uses the width it has', () => {
    const { lastFrame } = screen(160, 24);
    expect(rows(lastFrame())[0]).toMatch(
      new RegExp(
        String.raw`^› ✗ failed demo-inventory\.util\.ensure_non_negative +fails-without-body: no FAIL_TO_PASS ` +
          String.raw`test fails without the body \(4 pass\)$`,
        'u',
      ),
    );
    expect(overlong(lastFrame(), 160)).toEqual([]);
  });

  it('says when nothing was selected yet', () => {
    const { lastFrame } = render(
      <ValidationScreen
        overview={{ selectionId: null, entries: [] }}
        width={80}
        height={10}
        active
        loadLog={() => Promise.resolve(null)}
      />,
    );
    expect(frameLines(lastFrame())[0]).toBe(
      'no selection yet: the select stage picks the tasks that validation judges',
    );
  });

  it('names its keys for the help bar', () => {
    expect(VALIDATION_KEYS.map((entry) => entry.key)).toEqual(expect.arrayContaining(['Enter', 'f', 'Esc']));
  });
});
