import { RepocodError } from '@repocod/core';
import type { HubTarget } from '@repocod/pipeline';
import { hubToken, parseHubRepo } from '@repocod/pipeline';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/**
 * `--push ORG/NAME [--hub-url URL]` of curate and publish: where the release goes on the Hub, or undefined without
 * --push. The name is checked and the token read here, so a caller that reads its options first learns of a bad
 * name or a missing token before anything runs. The endpoint is --hub-url, else HF_ENDPOINT; the token comes from
 * HF_TOKEN (see hubToken).
 */
export function pushOption(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>> = process.env,
): HubTarget | undefined {
  const pushTo = stringOption(args, 'push');
  const hubUrl = stringOption(args, 'hub-url');
  if (pushTo === undefined) {
    if (hubUrl !== undefined) throw new RepocodError('usage', '--hub-url goes with --push ORG/NAME');
    return undefined;
  }
  return { repo: parseHubRepo(pushTo).id, hubUrl: hubUrl ?? env.HF_ENDPOINT, accessToken: hubToken(env) };
}
