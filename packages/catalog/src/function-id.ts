/**
 * The stable text id of a function across stages: the catalog key flattened into one string, so that
 * later tables (tests, tasks) can refer to a function with one column. The signature's first line is
 * part of it because a qualname may repeat in a file (a function defined twice under if/else).
 */
export function functionId(repository: string, file: string, qualname: string, signatureStart: number): string {
  return `${repository}:${file}:${qualname}:${signatureStart}`;
}
