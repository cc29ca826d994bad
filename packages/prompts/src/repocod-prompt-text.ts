/**
 * REPOCOD's prompt texts, verbatim from its inference example (`inference/example.py` of lt-asset/REPOCOD): the
 * system prompt and the Current-File template, whose four slots are the file path, the context before and after the
 * target, and the target (its signature and docstring). Its opening fence of the target is left open: the model
 * writes the body and stops at the closing fence.
 */
export const REPOCOD_SYSTEM_PROMPT =
  `You are an exceptionally intelligent coding assistant that ` +
  `consistently delivers accurate and reliable responses to user instructions.
You will be provided a function signiature and the documentation, and your task is to complete the function body.
You must only complete the target function and do not generate any comments or explanation or other functions or ` +
  `an examples. 
You must not leave the target function as \`not implemented\` or \`pass\`.`;

export function currentFileText(path: string, before: string, after: string, target: string): string {
  return `This is the file that contains the target function to be generated.

## File path: ${path}

### Context before the target function
\`\`\`python
${before}
\`\`\`

### Context after the target function
\`\`\`python
${after}
\`\`\`

### Target function to complete

\`\`\`python
${target}
`;
}

/**
 * The Baseline setting's text: the Current-File template's last section alone (REPOCOD publishes no template of its
 * own for it; this is ours, made of its parts).
 */
export function baselineText(path: string, target: string): string {
  return `This is the target function to be generated.

## File path: ${path}

### Target function to complete

\`\`\`python
${target}
`;
}

/** A function given before the target (bm25, dense, callees): its file and its text. */
export interface FunctionText {
  readonly file_path: string;
  readonly text: string;
}

/** The functions as the Current-File template gives a file: each under its path, in a Python fence. */
function functionsText(functions: readonly FunctionText[]): string {
  return functions.map((fn) => `## File path: ${fn.file_path}\n\`\`\`python\n${fn.text}\n\`\`\`\n\n`).join('');
}

/**
 * The RAG settings' text (bm25, dense): the retrieved functions, each with its file path, then the Baseline's text.
 * REPOCOD publishes no template for them; this one is made of its Current-File template's parts.
 */
export function retrievedText(functions: readonly FunctionText[], path: string, target: string): string {
  return `These are functions of the repository relevant to the target function.

${functionsText(functions)}${baselineText(path, target)}`;
}

/**
 * The Callees setting's text: the functions the solution calls, each with its file path, then the Current-File
 * template's first part with the context before the target (the setting's last 1,024 tokens of the file) and its
 * last section. Ours, made of REPOCOD's parts, as for the RAG settings.
 */
export function calleesText(functions: readonly FunctionText[], path: string, before: string, target: string): string {
  return `These are the functions the target function calls.

${functionsText(functions)}This is the file that contains the target function to be generated.

## File path: ${path}

### Context before the target function
\`\`\`python
${before}
\`\`\`

### Target function to complete

\`\`\`python
${target}
`;
}
