import { describe, expect, it } from 'vitest';
import { isTheProject, missingExtras } from './recipe-extra-check.js';

describe('missingExtras', () => {
  it("reads uv's and pip's warnings of a missing extra, and nothing else", () => {
    const lines = [
      'Resolved 12 packages in 40ms',
      'warning: The package `attrs @ file:///src/attrs` does not have an extra named `test`',
      "WARNING: attrs 25.3.0 does not provide the extra 'test'",
      'warning: The package `cloudpickle==3.1.1` does not have an extra named `dev`',
      'warning: something else',
    ];
    expect(missingExtras(lines)).toEqual([
      { package: 'attrs @ file:///src/attrs', extra: 'test', line: lines[1] },
      { package: 'attrs', extra: 'test', line: lines[2] },
      { package: 'cloudpickle==3.1.1', extra: 'dev', line: lines[3] },
    ]);
  });

  it('takes the project by its file url under the checkout, or by its distribution name', () => {
    expect(isTheProject('attrs @ file:///src/attrs', '/src/attrs', null)).toBe(true);
    expect(isTheProject('attrs @ file:///src/attrs/sub', '/src/attrs/', null)).toBe(true);
    expect(isTheProject('attrs @ file:///elsewhere/attrs', '/src/attrs', 'attrs')).toBe(false);
    expect(isTheProject('Python_Attrs', '/src/attrs', 'python-attrs')).toBe(true);
    expect(isTheProject('cloudpickle==3.1.1', '/src/attrs', 'attrs')).toBe(false);
  });
});
