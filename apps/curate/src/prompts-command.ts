import { RepocodError } from '@repocod/core';
import { parsePromptSetting, runPromptsCommand } from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { optionalWholeNumber, stringOption } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const PROMPTS_USAGE = `usage: repocod prompts --release DIR [--version V] --setting baseline|current-file
                       [--model-context N] [--out FILE] [--manifest FILE] [--source NAME=PATH] [--at NAME=REF]

Writes each task of a release as REPOCOD's inference example prompts a model, one JSON line per task:
instance_id, setting, file_path, function_name (the name REPOCOD's predictions give), system_prompt
(REPOCOD's, verbatim), target (decorators, signature and docstring), context (the file before and
after the target, its body removed), prompt (the user message), input (the system prompt and the
prompt, as the example feeds a model), tokens (cl100k) and what was cut. Settings, from REPOCOD's
paper: baseline (the target alone) and current-file (REPOCOD's template, verbatim); its bm25, dense
and callees settings are not written yet. --model-context N cuts an input over N tokens: the context
before the target from its beginning, then the context after it from its end. The file around the
target is read from the repository at the task's base commit with the task's pre patch applied, so a
prompt never holds its solution. Answers in REPOCOD's form ({repo: {id: {function_name, prompt,
output}}}) go to repocod evaluate (--insert repocod to score them as REPOCOD's evaluator does).
Default --out: out/prompts/<version>-<setting>.jsonl.`;

export async function promptsCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const release = stringOption(args, 'release');
  const settingFlag = stringOption(args, 'setting');
  if (release === undefined || settingFlag === undefined || args.positionals.length > 0)
    throw new RepocodError('usage', PROMPTS_USAGE);
  const setting = parsePromptSetting(settingFlag);
  const version = stringOption(args, 'version');
  const summary = await runPromptsCommand({
    ...repositoryOptions(args),
    release,
    version,
    setting,
    modelContext: optionalWholeNumber(args, 'model-context'),
    out: stringOption(args, 'out') ?? `out/prompts/${version ?? 'release'}-${setting}.jsonl`,
    onLog: (line) => io.err(`${line}\n`),
  });
  const tokens = summary.prompts.map((prompt) => prompt.tokens.input);
  const cut = summary.prompts.filter((prompt) => prompt.truncated.before + prompt.truncated.after > 0).length;
  io.out(
    `${summary.prompts.length} prompt(s) of version ${summary.version}, setting ${summary.setting} → \
${summary.file}\n` +
      (tokens.length === 0
        ? ''
        : `  input tokens (cl100k)  min ${Math.min(...tokens)}, max ${Math.max(...tokens)}, mean ${Math.round(
            tokens.reduce((sum, count) => sum + count, 0) / tokens.length,
          )}; ${cut} cut to the model's context\n`),
  );
  return 0;
}
