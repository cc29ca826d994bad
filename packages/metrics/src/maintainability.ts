/**
 * escomplex's maintainability index (src/module.js, calculateMaintainabilityIndex), applied to one
 * function as if it were a module of one function:
 *   MI = 171 − 3.42·ln(Halstead effort) − 0.23·ln(cyclomatic) − 16.2·ln(logical lines), at most 171;
 *   with `newmi`, rescaled to max(0, MI·100/171).
 * Note that escomplex uses Halstead *effort* where the original Oman–Hagemeister index uses volume,
 * so its figures are lower than radon's `mi` and must not be compared with them.
 */
export function maintainabilityIndex(effort: number, cyclomatic: number, logicalLines: number, newmi: boolean): number {
  let index = 171 - 3.42 * Math.log(effort) - 0.23 * Math.log(cyclomatic) - 16.2 * Math.log(logicalLines);
  if (index > 171 || Number.isNaN(index)) index = 171;
  return newmi ? Math.max(0, (index * 100) / 171) : index;
}
