import { describe, expect, it } from 'vitest';
import { usageOptions } from './usage-options.js';

describe('usageOptions', () => {
  it('reads values and flags from a synopsis of several lines, and nothing after it', () => {
    const usage = `usage: repocod mine <repository> [--exact] [--only QUALNAME]... [--workers N]
                    [--tracebacks native|pytest] [--source NAME=PATH] [--executor URL]
       repocod mine --lite <repository>... [--repo NAME]... [--margin 20%|N] [same options but --only]

Finds the relevant tests. --confirm and --fresh named here are prose, not options.`;
    expect(Object.fromEntries(usageOptions(usage))).toEqual({
      exact: 'flag',
      only: 'value',
      workers: 'value',
      tracebacks: 'value',
      source: 'value',
      executor: 'value',
      lite: 'flag',
      repo: 'value',
      margin: 'value',
    });
  });

  it('tells a flag before a bar, a bracket or a nested option from an option with a value', () => {
    const usage = `usage: repocod curate [--yes] (--tests FILE | --all) [--all | --margin 20%|N]
                      [--push ORG/NAME [--hub-url URL]] [--record [--record-out DIR]] --redis redis://HOST:PORT`;
    expect(Object.fromEntries(usageOptions(usage))).toEqual({
      yes: 'flag',
      tests: 'value',
      all: 'flag',
      margin: 'value',
      push: 'value',
      'hub-url': 'value',
      record: 'flag',
      'record-out': 'value',
      redis: 'value',
    });
  });
});
