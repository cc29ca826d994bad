import { HubApiError } from '@huggingface/hub';

/**
 * What a failed call of @huggingface/hub says, as one line fit for a RepocodError: the HTTP status
 * and the Hub's own message when the Hub answered, the network cause (ECONNREFUSED, ENOTFOUND …)
 * when it did not. Scrubbed: `token` becomes `hf_***`, and URLs lose their query strings, which for
 * presigned storage URLs (LFS uploads, CDN downloads) are credentials too.
 */
export function describeHubError(error: unknown, token: string | undefined): string {
  let detail: string;
  if (error instanceof HubApiError) {
    detail = `status ${error.statusCode}: ${error.message}${statusHint(error.statusCode)}`;
  } else if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    detail = `${error.message}${cause}`;
  } else {
    detail = String(error);
  }
  return scrubSecrets(detail, token);
}

/** The text with the token (and anything else shaped like a Hub token) and URL query strings masked. */
export function scrubSecrets(text: string, token: string | undefined): string {
  const withoutToken = token === undefined || token === '' ? text : text.split(token).join('hf_***');
  return withoutToken.replace(/\bhf_[A-Za-z0-9]{8,}/g, 'hf_***').replace(/(https?:\/\/[^\s?#]+)\?[^\s#]*/g, '$1?…');
}

function statusHint(status: number): string {
  if (status === 401) return ' (the Hub did not accept the token: check that HF_TOKEN holds a valid token)';
  if (status === 403)
    return (
      ' (the token may not have write access here: use a write token, or a fine-grained one allowed to write to ' +
      'this namespace)'
    );
  return '';
}
