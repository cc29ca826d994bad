import { type TaskOverview, taskOverviews } from '@repocod/pipeline';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { frameLines, KEY, overlong, press, tick } from '../testing/ink-test-support.js';
import { TASKS_KEYS, TasksScreen } from './tasks-screen.js';

/** The tasks screen over the demo's 52 real tasks (all selected, 51 passed validation, 1 failed). */
let tasks: TaskOverview[] = [];

beforeAll(async () => {
  const catalog = await openDemoCatalog();
  try {
    tasks = await taskOverviews(catalog);
  } finally {
    await catalog.close();
  }
});

function screen(
  width = 80,
  height = 24,
  active = true,
): ReturnType<typeof render> & { onOpen: ReturnType<typeof vi.fn> } {
  const onOpen = vi.fn();
  return {
    ...render(<TasksScreen tasks={tasks} width={width} height={height} active={active} onOpen={onOpen} />),
    onOpen,
  };
}

/** The rows of the table (after the status line and the header), without blank rows. */
function rows(frame: string | undefined): string[] {
  return frameLines(frame)
    .slice(2)
    .filter((row) => row.trim() !== '');
}

describe('TasksScreen', () => {
  it('shows the 52 tasks in a table that fits 80×24', () => {
    const { lastFrame } = screen();
    const lines = frameLines(lastFrame());
    expect(lines[0]).toBe('52 of 52 tasks · sort id ↑');
    expect(lines[1]).toMatch(/^ {3}instance id +repo level cc p\.ln s\.ln s\.tok tests valid\.$/u);
    expect(lines[2]).toMatch(/^›• demo-inventory\.cli\.main +demo repo +10 +18 +20 +217 +6 passed$/u);
    expect(lines).toHaveLength(24);
    expect(rows(lastFrame())).toHaveLength(22);
    expect(overlong(lastFrame(), 80)).toEqual([]);
  });

  it('uses more columns when wider', () => {
    const { lastFrame } = screen(160, 24);
    const lines = frameLines(lastFrame());
    expect(lines[1]).toMatch(/instance id +repo level +cc p\.ln s\.ln p\.tok s\.tok tests validation +file$/u);
    expect(lines[2]).toMatch(
      /^›• demo-inventory\.cli\.main +demo repo-level +10 +18 +20 +136 +217 +6 passed +inventory\/cli\.py$/u,
    );
    expect(overlong(lastFrame(), 160)).toEqual([]);
  });

  it('moves the cursor and scrolls to keep it in view', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, KEY.end);
    expect(rows(lastFrame()).at(-1)).toMatch(/^›• .*warehouse\.restock_all /u);
    // retry, whose body its tests need while they are collected, passes its checks and is selected (•).
    expect(rows(lastFrame()).some((row) => /^ • demo-inventory\.util\.retry /u.test(row))).toBe(true);
    await press(stdin, KEY.home, KEY.down, KEY.down);
    expect(rows(lastFrame())[2]).toMatch(/^›• .*models\.Item\.parse_tags /u);
    // A page is the 22 rows in view.
    await press(stdin, KEY.pageDown);
    const byId = tasks.map((task) => task.instanceId).sort();
    expect(rows(lastFrame()).find((row) => row.startsWith('›'))).toContain(byId[24]?.slice(-20));
    expect(overlong(lastFrame(), 80)).toEqual([]);
  });

  it('filters by level: repo-level leaves 16', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, 'l');
    expect(frameLines(lastFrame())[0]).toBe('26 of 52 tasks · sort id ↑ · level self-contained');
    await press(stdin, 'l', 'l');
    expect(frameLines(lastFrame())[0]).toBe('16 of 52 tasks · sort id ↑ · level repo-level');
    expect(rows(lastFrame())).toHaveLength(16);
    expect(rows(lastFrame()).every((row) => / demo repo /u.test(row))).toBe(true);
    await press(stdin, 'l');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort id ↑');
  });

  it('filters by validation and by repository', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, 'v');
    expect(frameLines(lastFrame())[0]).toBe('51 of 52 tasks · sort id ↑ · validation passed');
    await press(stdin, 'v');
    expect(frameLines(lastFrame())[0]).toBe('1 of 52 tasks · sort id ↑ · validation failed');
    expect(rows(lastFrame())).toEqual([
      expect.stringMatching(/^›• …nventory\.util\.ensure_non_negative demo self .* failed$/u),
    ]);
    await press(stdin, 'v', 'v');
    // Every task is selected and validated (retry included since its checks pass).
    expect(frameLines(lastFrame())[0]).toBe('0 of 52 tasks · sort id ↑ · validation not-validated');
    expect(rows(lastFrame()).some((row) => /demo-inventory/u.test(row))).toBe(false);
    await press(stdin, 'c', 'r');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort id ↑ · repo demo');
    await press(stdin, 'r');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort id ↑');
  });

  it('sorts by complexity (format_table, cc 13, first), cycles the columns and reverses', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, 's');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort complexity ↓');
    expect(rows(lastFrame())[0]).toMatch(/reports\.format_table demo self +13 /u);
    expect(rows(lastFrame())[1]).toMatch(/util\.build_unit_table demo self +12 /u);
    await press(stdin, 'S');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort complexity ↑');
    expect(rows(lastFrame())[0]).toMatch(/ +1 +\d+ +\d+ +\d+ +\d+ passed$/u);
    await press(stdin, 's');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort solution lines ↓');
    expect(rows(lastFrame())[0]).toMatch(/pricing\.quote .* 29 /u);
    await press(stdin, 's', 's', 's');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort tests ↓');
    expect(rows(lastFrame())[0]).toMatch(/ 314 /u);
    await press(stdin, 's');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort id ↑');
  });

  it('opens the task at the cursor with Enter', async () => {
    const { stdin, onOpen } = screen();
    await press(stdin, 's', KEY.enter);
    expect(onOpen).toHaveBeenLastCalledWith('demo-inventory.reports.format_table');
    await press(stdin, KEY.down, KEY.enter);
    expect(onOpen).toHaveBeenLastCalledWith('demo-inventory.util.build_unit_table');
  });

  it('opens the row that quick moves left the cursor on', async () => {
    const { stdin, onOpen } = screen();
    // No wait between the keys, as when they are held or typed fast.
    stdin.write(KEY.down);
    stdin.write(KEY.down);
    stdin.write(KEY.enter);
    await tick();
    expect(onOpen).toHaveBeenLastCalledWith(tasks.map((task) => task.instanceId).sort()[2]);
  });

  it('keeps the cursor on its task when the order changes', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, 's', KEY.down, KEY.down);
    expect(rows(lastFrame())[2]).toMatch(/^›.*cli\.main /u);
    await press(stdin, 's');
    expect(rows(lastFrame()).find((row) => row.startsWith('›'))).toMatch(/cli\.main /u);
  });

  it('filters by text in the id, typed after /, the typed keys not acting as commands', async () => {
    const onOpen = vi.fn();
    const onTextEntry = vi.fn();
    const { lastFrame, stdin } = render(
      <TasksScreen tasks={tasks} width={80} height={24} active onOpen={onOpen} onTextEntry={onTextEntry} />,
    );
    // The mount's own call (false) and Ink's key handler come in effects: let them run before the key.
    await tick();
    await press(stdin, '/');
    await vi.waitFor(() => expect(onTextEntry).toHaveBeenLastCalledWith(true));
    await press(stdin, 's', 'l', 'u', 'g');
    expect(frameLines(lastFrame())[0]).toBe('1 of 52 tasks · sort id ↑ · /slug▏ (Enter/Esc ends)');
    await press(stdin, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, 'quote');
    expect(frameLines(lastFrame())[0]).toBe('1 of 52 tasks · sort id ↑ · /quote▏ (Enter/Esc ends)');
    await press(stdin, KEY.enter);
    expect(onTextEntry).toHaveBeenLastCalledWith(false);
    expect(onOpen).not.toHaveBeenCalled();
    expect(frameLines(lastFrame())[0]).toBe('1 of 52 tasks · sort id ↑ · id ~ "quote"');
    expect(rows(lastFrame())).toEqual([expect.stringMatching(/^›• demo-inventory\.pricing\.quote +demo repo /u)]);
    await press(stdin, KEY.enter);
    expect(onOpen).toHaveBeenLastCalledWith('demo-inventory.pricing.quote');
    await press(stdin, '/', 'x', KEY.escape);
    expect(frameLines(lastFrame())[0]).toBe('0 of 52 tasks · sort id ↑ · id ~ "quotex"');
    expect(rows(lastFrame())).toEqual(['no task matches the filters (c clears them)']);
  });

  it('shows histograms of complexity and solution length per level for the tasks in view', async () => {
    const { lastFrame, stdin } = screen();
    await press(stdin, 'h');
    const lines = frameLines(lastFrame());
    expect(lines[0]).toBe('52 of 52 tasks · sort id ↑');
    expect(lines[1]).toBe('complexity (cc) per level · 52 tasks');
    expect(lines[2]).toMatch(/^cc +self-contained \(26\) +file-level \(10\) +repo-level \(16\)$/u);
    expect(lines.find((row) => row.startsWith('12-13'))).toMatch(/^12-13 [█▏▎▍▌▋▊▉]+ +2 +· +·$/u);
    expect(lines).toContain('solution length (lines) per level · 52 tasks');
    expect(overlong(lastFrame(), 80)).toEqual([]);
    await press(stdin, 'h', 'l', 'l', 'l', 'h');
    expect(frameLines(lastFrame())[1]).toBe('complexity (cc) per level · 16 tasks');
    expect(frameLines(lastFrame())[2]).toMatch(/self-contained \(0\) +file-level \(0\) +repo-level \(16\)$/u);
  });

  it('ignores keys while inactive', async () => {
    const { lastFrame, stdin } = screen(80, 24, false);
    await press(stdin, 's', 'l');
    expect(frameLines(lastFrame())[0]).toBe('52 of 52 tasks · sort id ↑');
  });

  it('names its keys for the help bar', () => {
    expect(TASKS_KEYS.map((entry) => entry.key)).toEqual(expect.arrayContaining(['Enter', 's/S', 'r/l/v', '/', 'h']));
  });
});
