import { HubApiError } from '@huggingface/hub';
import { describe, expect, it } from 'vitest';
import { describeHubError, scrubSecrets } from './hub-error.js';

describe('describeHubError', () => {
  it('gives the status and the Hub’s message, with a hint for refused credentials', () => {
    const error = new HubApiError(
      'https://huggingface.co/api/repos/create',
      403,
      'req-1',
      'You don’t have the rights to create a dataset under this namespace',
    );
    expect(describeHubError(error, 'hf_abc')).toBe(
      'status 403: You don’t have the rights to create a dataset under this namespace (the token may not have write ' +
        'access here: use a write token, or a fine-grained one allowed to write to this namespace)',
    );
  });

  it('gives the network cause when the Hub did not answer', () => {
    const error = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(describeHubError(error, undefined)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
  });
});

describe('scrubSecrets', () => {
  it('masks the token, anything shaped like one, and the query of URLs (presigned credentials)', () => {
    const token = 'hf_TheRealToken0123456789';
    const text =
      `Bearer ${token} failed; also hf_SomeOtherToken99 at ` +
      `https://s3.example/bucket/obj?X-Amz-Signature=abc&X-Amz-Credential=def. URL: https://huggingface.co/api/x`;
    expect(scrubSecrets(text, token)).toBe(
      'Bearer hf_*** failed; also hf_*** at https://s3.example/bucket/obj?… URL: https://huggingface.co/api/x',
    );
  });
});
