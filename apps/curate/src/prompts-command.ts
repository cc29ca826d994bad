import { RepocodError } from '@repocod/core';
import { parsePromptSetting, runPromptsCommand } from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { optionalWholeNumber, stringOption } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const PROMPTS_USAGE = `usage: repocod prompts --release DIR [--version V]
                       --setting baseline|current-file|bm25|dense|callees
                       [--model-context N] [--tokenizer cl100k|o200k] [--top N] [--embed-command CMD]
                       [--out FILE | --into-release] [--manifest FILE] [--source NAME=PATH] [--at NAME=REF]

Writes each task of a release as REPOCOD's inference example prompts a model, one JSON line per task:
instance_id, repository and function_name (what REPOCOD's predictions are keyed by), setting, file_path, system_prompt
(REPOCOD's, verbatim), target (decorators, signature and docstring), context (the file around the
target, its body removed), functions (those given before the target, with their paths, lines and
scores) and retrieval (how they were found), prompt (the user message), input (the system prompt and
the prompt, as the example feeds a model), tokens and what was cut.

Settings, from REPOCOD's paper (§3):
  baseline       the target alone
  current-file   the file before and after the target (REPOCOD's template, verbatim)
  bm25           the --top N functions (default 5) BM25 ranks highest for the target's signature and
                 docstring (minisearch 7.2.0, k1 1.2, b 0.75, identifiers split into words), the most
                 relevant last
  dense          the same, ranked by the cosine of embeddings made by --embed-command CMD: run with sh -c,
                 it reads one JSON line {"text": ...} per text and prints one JSON array of numbers per
                 text, in order
  callees        the functions the canonical solution calls (the repocod-v4 level mode's calls; a class
                 called gives its __init__) and the last 1,024 tokens of the file before the target
Retrieval's corpus is every function of the repository in the task's pre state (tests included): the
base commit with the body and the task's tests removed. The target itself, functions defined in its
body, the removed tests (counted in retrieval.tests_left_out) and any function holding the whole body
elsewhere (each listed in retrieval.left_out) are left out.

--model-context N cuts an input over N tokens from its beginning: whole functions first (the least
relevant), then the context before the target, then the context after it from its end. --tokenizer
measures and cuts (default cl100k). --into-release writes the prompts into the release as
<version>/prompts/<setting>.jsonl and names them in its card (a config and a Prompts section). Answers
in REPOCOD's form ({repo: {id: {function_name, prompt, output}}}) go to repocod evaluate (--insert
repocod to score them as REPOCOD's evaluator does). Default --out: out/prompts/<version>-<setting>.jsonl.`;

export async function promptsCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const release = stringOption(args, 'release');
  const settingFlag = stringOption(args, 'setting');
  if (release === undefined || settingFlag === undefined || args.positionals.length > 0)
    throw new RepocodError('usage', PROMPTS_USAGE);
  const setting = parsePromptSetting(settingFlag);
  const version = stringOption(args, 'version');
  const out = stringOption(args, 'out');
  if (out !== undefined && args.flags.has('into-release'))
    throw new RepocodError('usage', '--out and --into-release: give one (a file of your own, or the release itself)');
  const summary = await runPromptsCommand({
    ...repositoryOptions(args),
    release,
    version,
    setting,
    modelContext: optionalWholeNumber(args, 'model-context'),
    tokenizer: stringOption(args, 'tokenizer'),
    top: optionalWholeNumber(args, 'top'),
    embedCommand: stringOption(args, 'embed-command'),
    out: args.flags.has('into-release')
      ? { into: 'release' }
      : (out ?? `out/prompts/${version ?? 'release'}-${setting}.jsonl`),
    onLog: (line) => io.err(`${line}\n`),
  });
  const tokens = summary.prompts.map((prompt) => prompt.tokens.input);
  const cut = summary.prompts.filter(
    (prompt) => prompt.truncated.functions + prompt.truncated.before + prompt.truncated.after > 0,
  ).length;
  const leftOut = summary.prompts.flatMap((prompt) =>
    prompt.retrieval !== null && 'left_out' in prompt.retrieval
      ? prompt.retrieval.left_out.filter((fn) => fn.reason === 'carries the solution')
      : [],
  ).length;
  const tokenizer = summary.prompts[0]?.tokens.tokenizer ?? '';
  const over = summary.prompts.filter(
    (prompt) => prompt.tokens.model_context !== null && prompt.tokens.input > prompt.tokens.model_context,
  ).length;
  io.out(
    `${summary.prompts.length} prompt(s) of version ${summary.version}, setting ${summary.setting} → ` +
      `${summary.file}\n` +
      (tokens.length === 0
        ? ''
        : `  input tokens (${tokenizer})  min ${Math.min(...tokens)}, max ${Math.max(...tokens)}, mean ${Math.round(
            tokens.reduce((sum, count) => sum + count, 0) / tokens.length,
          )}; ${cut} cut to the model's context${
            over === 0 ? '' : `, ${over} still over it (a target alone longer than the context)`
          }\n`) +
      (leftOut === 0 ? '' : `  ${leftOut} function(s) left out of a corpus for holding the task's whole body\n`) +
      (summary.embedding === null
        ? ''
        : `  embeddings by \`${summary.embedding.command}\`: ${summary.embedding.texts} text(s) in ` +
          `${summary.embedding.runs} run(s)\n`),
  );
  return 0;
}
