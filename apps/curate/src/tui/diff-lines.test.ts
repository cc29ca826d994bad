import { describe, expect, it } from 'vitest';
import { diffLineKinds, diffLines } from './diff-lines.js';
import { lineText } from './styled-line.js';

const PATCH = `diff --git a/inventory/pricing.py b/inventory/pricing.py
index 1111111..2222222 100644
--- a/inventory/pricing.py
+++ b/inventory/pricing.py
@@ -306,5 +306,4 @@
         an item, or the coupon is malformed.
     """
-    lines = list(lines)
--- a removed line that looks like a header
     return total
+    pass
\\ No newline at end of file
`;

describe('diffLineKinds', () => {
  it('tells headers, hunks, removals, additions and context apart by position', () => {
    expect(diffLineKinds(PATCH.trimEnd().split('\n'))).toEqual([
      'file',
      'meta',
      'file',
      'file',
      'hunk',
      'context',
      'context',
      'removed',
      'removed',
      'context',
      'added',
      'meta',
    ]);
  });

  it('reads hunks without counts (one line) and several files', () => {
    const rows = [
      '--- a/x.py',
      '+++ b/x.py',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/y.py b/y.py',
      '--- a/y.py',
      '+++ b/y.py',
      '@@ -0,0 +1,1 @@',
      '+c',
    ];
    expect(diffLineKinds(rows)).toEqual([
      'file',
      'file',
      'hunk',
      'removed',
      'added',
      'file',
      'file',
      'file',
      'hunk',
      'added',
    ]);
  });

  it('falls back on the first character past a miscounted hunk', () => {
    expect(diffLineKinds(['@@ -1 +1 @@', '-a', '+b', '+c', ' d', 'index 0..1'])).toEqual([
      'hunk',
      'removed',
      'added',
      'added',
      'context',
      'meta',
    ]);
  });
});

describe('diffLines', () => {
  it('colours removed lines red, added green, hunks cyan, headers bold, the rest dim or plain', () => {
    const lines = diffLines(PATCH);
    expect(lines).toHaveLength(12);
    expect(lines[0]).toEqual([{ text: 'diff --git a/inventory/pricing.py b/inventory/pricing.py', bold: true }]);
    expect(lines[1]?.[0]?.dim).toBe(true);
    expect(lines[4]?.[0]?.color).toBe('cyan');
    expect(lines[7]).toEqual([{ text: '-    lines = list(lines)', color: 'red' }]);
    expect(lines[10]).toEqual([{ text: '+    pass', color: 'green' }]);
    expect(lines[5]?.[0]?.color).toBeUndefined();
    expect(lines.map(lineText).at(-1)).toBe('\\ No newline at end of file');
  });

  it('gives no lines for an empty patch', () => {
    expect(diffLines('')).toEqual([]);
  });
});
