import type { ReleasePrompts } from './release-prompts.js';

/** The markers around the card's Prompts section, so that it can be found and written again. */
const SECTION_START = '<!-- repocod:prompts -->';
const SECTION_END = '<!-- /repocod:prompts -->';

/** The card's section on the prompts shipped, between markers so that it can be written again; empty for none. */
export function promptsSection(prompts: readonly ReleasePrompts[]): string {
  if (prompts.length === 0) return '';
  const rows = prompts.map(
    (each) =>
      `| \`${each.configName}\` | ${each.setting} | \`${each.path}\` | ${each.tasks} | ${each.tokenizer} | ${
        each.modelContext ?? 'none'
      } | ${each.medianInputTokens} / ${each.maxInputTokens} | ${each.retrieval ?? '—'} |`,
  );
  return `${SECTION_START}
## Prompts

Each task as REPOCOD's inference example prompts a model, under the settings of REPOCOD's paper (§3), one JSON line
per task (written by \`repocod prompts\`): the system prompt, the target, its context, the prompt and the whole
input. No prompt holds its task's solution. Load one with \`load_dataset(…, "<config>")\`.

| config | setting | file | tasks | tokenizer | model context | input tokens (median / max) | functions given |
| --- | --- | --- | ---: | --- | ---: | ---: | --- |
${rows.join('\n')}
${SECTION_END}
`;
}

/** A card body with its prompts section put where it was, or at its end. */
export function withPromptsSection(body: string, prompts: readonly ReleasePrompts[]): string {
  const start = body.indexOf(SECTION_START);
  const end = body.indexOf(SECTION_END);
  const section = promptsSection(prompts);
  if (start !== -1 && end > start) {
    const rest = body.slice(end + SECTION_END.length).replace(/^\r?\n/, '');
    return body.slice(0, start) + section + rest;
  }
  if (section === '') return body;
  return `${body.trimEnd()}\n\n${section}`;
}
