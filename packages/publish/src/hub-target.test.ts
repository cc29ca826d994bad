import { describe, expect, it } from 'vitest';
import { failure } from './testing/hub-test-support.js';
import { checkHubToken, hubToken, parseHubRepo } from './hub-target.js';

describe('parseHubRepo', () => {
  it('takes ORG/NAME as the Hub allows it', async () => {
    expect(parseHubRepo('repocod/REPOCOD_Lite_Unified')).toEqual({
      org: 'repocod',
      name: 'REPOCOD_Lite_Unified',
      id: 'repocod/REPOCOD_Lite_Unified',
    });
    expect(parseHubRepo('a-b/v1.2_x').id).toBe('a-b/v1.2_x');
    expect(parseHubRepo(`org/${'x'.repeat(96)}`).name).toHaveLength(96);
  });

  it.each([
    ['repocod', /one slash/],
    ['a/b/c', /one slash/],
    ['org/', /the name is empty/],
    ['org/na me', /the name "na me" may use only letters, digits, "-", "_" and "\."/],
    ['org/na--me', /may not contain "--" or "\.\."/],
    ['org/na..me', /may not contain "--" or "\.\."/],
    ['org/-name', /may not start or end with "-" or "\."/],
    ['org/name.', /may not start or end with "-" or "\."/],
    ['.org/name', /the organisation ".org" may not start or end/],
    ['org/name.git', /may not end with "\.git"/],
    [`org/${'x'.repeat(97)}`, /97 characters long; the Hub allows at most 96/],
    ['https://huggingface.co/datasets/org/name', /without "https:\/\/huggingface\.co\/" or "datasets\/"/],
  ])('refuses %s, naming the value and the rule', async (value, rule) => {
    const error = await failure(() => parseHubRepo(value));
    expect(error.code).toBe('usage');
    expect(error.message).toContain(`--push ${JSON.stringify(value)}`);
    expect(error.message).toMatch(rule);
  });
});

describe('hubToken', () => {
  it('reads HF_TOKEN first, then HUGGING_FACE_HUB_TOKEN', async () => {
    expect(hubToken({ HF_TOKEN: 'hf_first', HUGGING_FACE_HUB_TOKEN: 'hf_second' })).toBe('hf_first');
    expect(hubToken({ HF_TOKEN: '', HUGGING_FACE_HUB_TOKEN: 'hf_second' })).toBe('hf_second');
  });

  it('says how to set a token when there is none', async () => {
    const error = await failure(() => hubToken({}));
    expect(error.code).toBe('hub-failed');
    expect(error.message).toContain('set HF_TOKEN to a write token (hf_…)');
  });

  it('refuses an ill-formed token without repeating it', async () => {
    const secret = 'ghp_notAHuggingFaceToken123';
    const wrong = await failure(() => hubToken({ HUGGING_FACE_HUB_TOKEN: secret }));
    expect(wrong.code).toBe('hub-failed');
    expect(wrong.message).toMatch(
      /HUGGING_FACE_HUB_TOKEN is set but does not look like a Hugging Face token \(tokens start with hf_\)/,
    );
    expect(wrong.message).not.toContain(secret);
    const pasted = await failure(() => hubToken({ HF_TOKEN: 'hf_secretvalue\n' }));
    expect(pasted.message).toMatch(/HF_TOKEN contains white space/);
    expect(pasted.message).not.toContain('secretvalue');
  });
});

describe('checkHubToken', () => {
  it('names where the token came from, not the token', async () => {
    expect(checkHubToken('hf_ok', '--token')).toBe('hf_ok');
    expect((await failure(() => checkHubToken('', 'the access token'))).message).toMatch(
      /^the access token is empty; set HF_TOKEN/,
    );
    expect((await failure(() => checkHubToken('sk-secret', '--token'))).message).not.toContain('sk-secret');
  });
});
