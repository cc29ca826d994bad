import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const PROJECT_ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const DEMO_ROOT = resolve(PROJECT_ROOT, 'datasets/demo');

/** The venv `scripts/setup.sh` makes for the Python test tools; else $PYTHON or python3. */
export function toolsPython(): string {
  const venv = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/python');
  return existsSync(venv) ? venv : (process.env.PYTHON ?? 'python3');
}
