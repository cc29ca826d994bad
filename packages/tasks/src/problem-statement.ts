import { RepocodError } from '@repocod/core';

/** What a problem statement may mention; `{name}` in a template is replaced by the value. */
export interface StatementFields {
  readonly repository: string;
  readonly file: string;
  readonly qualname: string;
  /** The prompt: signature and docstring, as the model sees them. */
  readonly prompt: string;
  readonly level: string;
  readonly tests: string;
}

export interface StatementTemplates {
  readonly code: string;
  readonly test: string;
}

/** The default templates (a curator gives others in the tasks config; see docs/tasks.md). */
export const DEFAULT_TEMPLATES: StatementTemplates = {
  code: [
    'Complete the body of `{qualname}` in `{file}` of the repository {repository}.',
    'The signature and the docstring are given; write the function body so that it behaves as the',
    'docstring describes and as the rest of the repository expects.',
    '',
    '{prompt}',
  ].join('\n'),
  test: [
    'Write tests for `{qualname}` in `{file}` of the repository {repository}: tests that pass with its',
    'implementation and fail when its body is removed. The tests removed for this task were:',
    '{tests}',
    '',
    '{prompt}',
  ].join('\n'),
};

const FIELD = /\{(\w+)\}/g;
const KNOWN: readonly (keyof StatementFields)[] = ['repository', 'file', 'qualname', 'prompt', 'level', 'tests'];

/** Fills a template; an unknown `{field}` is an error naming it, so a typo never reaches a release. */
export function renderTemplate(template: string, fields: StatementFields, source = 'the template'): string {
  return template.replace(FIELD, (_whole, name: string) => {
    if (!(KNOWN as readonly string[]).includes(name)) {
      throw new RepocodError(
        'config-invalid',
        `${source}: unknown field {${name}} (known: ${KNOWN.map((field) => `{${field}}`).join(', ')})`,
      );
    }
    return fields[name as keyof StatementFields];
  });
}
