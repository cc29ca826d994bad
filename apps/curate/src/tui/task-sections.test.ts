import { taskDetail } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { lineText } from './styled-line.js';
import { taskSections } from './task-sections.js';

describe('taskSections', () => {
  it('splits a real task into its task, prompt, patches and validation', async () => {
    const catalog = await openDemoCatalog();
    try {
      const detail = await taskDetail(catalog, 'demo-inventory.pricing.quote');
      if (detail === null) throw new Error('the demo has no pricing.quote');
      const sections = taskSections(detail);
      expect(sections.map((section) => section.title)).toEqual(['task', 'prompt', 'patches', 'validation']);
      const [task, prompt, patches, validation] = sections.map((section) => section.lines.map(lineText));
      expect(task).toContain('    compute_tax → function compute_tax (inventory/pricing.py:190, via local)');
      expect(task?.filter((row) => row.startsWith('  tests/'))).toHaveLength(10);
      expect(prompt).toHaveLength(25);
      expect(prompt?.[0]).toBe('def quote(lines, region, coupon=None):');
      expect(patches?.[0]).toBe('pre_patches.code: removes the body');
      // The removed body is red and the restored one green.
      const removed = sections[2]?.lines.find((row) => lineText(row) === '-    lines = list(lines)');
      const added = sections[2]?.lines.find((row) => lineText(row) === '+    lines = list(lines)');
      expect(removed?.[0]?.color).toBe('red');
      expect(added?.[0]?.color).toBe('green');
      expect(validation?.[0]).toMatch(/^status {6}passed · /u);
      expect(validation).toContain('tests       10 FAIL_TO_PASS test(s) as validated');
    } finally {
      await catalog.close();
    }
  });
});
