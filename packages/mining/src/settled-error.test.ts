import { describe, expect, it } from 'vitest';
import { mutationMessage } from './mutation-target.js';
import { isSettledError } from './settled-error.js';

describe('isSettledError', () => {
  it("settles an error whose output is the mutation's own assertion, and no other", () => {
    const crash = `crashed (exit code 1):   File "astropy/utils/decorators.py", line 1122, in format_doc
    raise AssertionError("${mutationMessage('format_doc')}")
AssertionError: ${mutationMessage('format_doc')}`;
    expect(isSettledError({ status: 'error', qualname: 'format_doc', reason: crash })).toBe(true);
    // Another function's mutation, a timeout, an answer: retried or final as they are.
    expect(isSettledError({ status: 'error', qualname: 'other', reason: crash })).toBe(false);
    expect(isSettledError({ status: 'error', qualname: 'format_doc', reason: 'timeout (exit code none): …' })).toBe(
      false,
    );
    expect(isSettledError({ status: 'no-tests', qualname: 'format_doc', reason: crash })).toBe(false);
  });
});
