import { RepocodError } from '@repocod/core';

/** A dataset repository on the Hub, as `ORG/NAME`. */
export interface HubRepo {
  readonly org: string;
  readonly name: string;
  /** `ORG/NAME`, what the Hub's API and the CLI call the repository. */
  readonly id: string;
}

/** The Hub's limit on a repository name (huggingface_hub's validate_repo_id). */
export const HUB_NAME_MAX_LENGTH = 96;

/**
 * Parses `ORG/NAME` under the rules the Hub applies to repository ids (huggingface_hub's
 * validate_repo_id), so a bad name is refused here with the rule it breaks instead of as a 400
 * from the Hub after the release folder has been hashed and half uploaded. `flag` is the option the
 * value came from, for the message.
 */
export function parseHubRepo(value: string, flag = '--push'): HubRepo {
  const refuse = (rule: string): never => {
    throw new RepocodError('usage', `${flag} ${JSON.stringify(value)}: ${rule}`);
  };
  if (/^(https?:\/\/|datasets\/)/.test(value)) {
    refuse('give the dataset as ORG/NAME, without "https://huggingface.co/" or "datasets/" in front');
  }
  const parts = value.split('/');
  if (parts.length !== 2)
    refuse('give the dataset as ORG/NAME (one slash: your user or organisation, then the dataset name)');
  const [org = '', name = ''] = parts;
  for (const [label, part] of [
    ['organisation', org],
    ['name', name],
  ] as const) {
    if (part === '') refuse(`the ${label} is empty; give the dataset as ORG/NAME`);
    if (!/^[A-Za-z0-9_.-]+$/.test(part))
      refuse(`the ${label} ${JSON.stringify(part)} may use only letters, digits, "-", "_" and "."`);
    if (/^[-.]|[-.]$/.test(part)) refuse(`the ${label} ${JSON.stringify(part)} may not start or end with "-" or "."`);
    if (part.includes('--') || part.includes('..'))
      refuse(`the ${label} ${JSON.stringify(part)} may not contain "--" or ".."`);
  }
  if (name.length > HUB_NAME_MAX_LENGTH)
    refuse(`the name is ${name.length} characters long; the Hub allows at most ${HUB_NAME_MAX_LENGTH}`);
  if (name.endsWith('.git')) refuse('the name may not end with ".git"');
  return { org, name, id: `${org}/${name}` };
}

/** The environment variables a Hub token is read from, in the order huggingface_hub reads them. */
export const HUB_TOKEN_VARIABLES = ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'] as const;

/**
 * The Hub token from the environment (`HF_TOKEN`, else `HUGGING_FACE_HUB_TOKEN`). The messages name
 * the variable, never its value: they end up in terminals, CI logs and bug reports.
 */
export function hubToken(env: Readonly<Record<string, string | undefined>>): string {
  for (const variable of HUB_TOKEN_VARIABLES) {
    const token = env[variable];
    if (token !== undefined && token !== '') return checkHubToken(token, variable);
  }
  throw new RepocodError(
    'hub-failed',
    'no Hugging Face token: set HF_TOKEN to a write token (hf_…) from https://huggingface.co/settings/tokens',
  );
}

/**
 * The token when it has the shape of a Hub token, else a RepocodError naming `source` (where it came
 * from) but not the value. Checked before any request: the Hub answers a malformed token with a 401
 * that repoExists reads as "no such repository".
 */
export function checkHubToken(token: string, source: string): string {
  if (token === '')
    throw new RepocodError(
      'hub-failed',
      `${source} is empty; set HF_TOKEN to a write token (hf_…) from https://huggingface.co/settings/tokens`,
    );
  if (!token.startsWith('hf_')) {
    throw new RepocodError(
      'hub-failed',
      `${source} is set but does not look like a Hugging Face token (tokens start with hf_); set HF_TOKEN to a write ` +
        `token (hf_…) from https://huggingface.co/settings/tokens`,
    );
  }
  if (/\s/.test(token)) {
    throw new RepocodError(
      'hub-failed',
      `${source} contains white space (a stray newline or space from copying it?); set HF_TOKEN to the write token ` +
        `(hf_…) alone`,
    );
  }
  return token;
}
