/**
 * REPOCOD's prompt texts, verbatim from its inference example (`inference/example.py` of lt-asset/REPOCOD): the
 * system prompt and the Current-File template, whose four slots are the file path, the context before and after the
 * target, and the target (its signature and docstring). Its opening fence of the target is left open: the model
 * writes the body and stops at the closing fence.
 */
export const REPOCOD_SYSTEM_PROMPT = `You are an exceptionally intelligent coding assistant that \
consistently delivers accurate and reliable responses to user instructions.
You will be provided a function signiature and the documentation, and your task is to complete the function body.
You must only complete the target function and do not generate any comments or explanation or other functions or \
an examples. 
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
