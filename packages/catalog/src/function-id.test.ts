import { describe, expect, it } from 'vitest';
import { functionId } from './function-id.js';

describe('functionId', () => {
  it('joins the catalog key', () => {
    expect(functionId('flask', 'src/flask/app.py', 'Flask.run', 120)).toBe('flask:src/flask/app.py:Flask.run:120');
  });

  it('tells apart two definitions of the same qualname', () => {
    expect(functionId('r', 'a.py', 'f', 3)).not.toBe(functionId('r', 'a.py', 'f', 9));
  });
});
