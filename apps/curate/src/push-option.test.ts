import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './parse-args.js';
import { pushOption } from './push-option.js';

const TOKEN = 'hf_0123456789abcdef';
const args = (...argv: string[]) => parseArgs(['publish', ...argv], new Set(['push', 'hub-url']));
const refusal = (run: () => unknown): { code: string; message: string } | null => {
  try {
    run();
    return null;
  } catch (error) {
    return isRepocodError(error) ? { code: error.code, message: error.message } : null;
  }
};

describe('pushOption', () => {
  it('is undefined without --push, and refuses --hub-url without it', () => {
    expect(pushOption(args(), {})).toBeUndefined();
    expect(refusal(() => pushOption(args('--hub-url', 'http://127.0.0.1:9'), {}))).toEqual({
      code: 'usage',
      message: '--hub-url goes with --push ORG/NAME',
    });
  });

  it('gives the dataset, the endpoint (--hub-url, else HF_ENDPOINT) and the token from the environment', () => {
    expect(pushOption(args('--push', 'org/data'), { HF_TOKEN: TOKEN })).toEqual({
      repo: 'org/data',
      hubUrl: undefined,
      accessToken: TOKEN,
    });
    const env = { HF_TOKEN: TOKEN, HF_ENDPOINT: 'http://mirror' };
    expect(pushOption(args('--push', 'org/data'), env)?.hubUrl).toBe('http://mirror');
    expect(pushOption(args('--push', 'org/data', '--hub-url', 'http://hub'), env)?.hubUrl).toBe('http://hub');
  });

  it('refuses a bad name before it looks for a token, and then a missing token', () => {
    expect(refusal(() => pushOption(args('--push', 'no-slash'), {}))?.code).toBe('usage');
    expect(refusal(() => pushOption(args('--push', 'org/data'), {}))?.code).toBe('hub-failed');
  });
});
