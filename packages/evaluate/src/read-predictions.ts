import { basename } from 'node:path';
import type { Prediction, PredictionChange, PredictionProblem, ReadPredictions } from './prediction.js';

/**
 * Reads a predictions file's text. The form is told by its shape, as SWE-bench's harness does:
 * - JSON lines, one record per line (a malformed line is a problem at `file:line`, the others are read);
 * - a JSON list of records (`file: item N`);
 * - a JSON object of records keyed by instance id;
 * - REPOCOD's output, `{repo: {repo_id: {function_name, prompt, output}}}` (`file: repo/id`).
 * A record names `instance_id` and either `model_patch` (SWE-bench) or `completion`; an empty or null
 * one is an empty prediction. A second prediction for the same instance by the same model is a problem
 * (the first is kept), never a silent override. The model of forms without `model_name_or_path` is the
 * file's name without its extension.
 */
export function parsePredictions(text: string, file: string): ReadPredictions {
  const reader = new PredictionReader(file);
  const trimmed = text.trim();
  if (trimmed === '') {
    reader.problem(file, null, 'the file is empty: give JSON lines, a JSON list or an object of predictions');
    return reader.result();
  }
  const whole = trimmed.startsWith('[') || trimmed.startsWith('{') ? tryParse(trimmed) : undefined;
  if (whole === undefined && trimmed.startsWith('[')) {
    reader.problem(file, null, `not a valid JSON list: ${parseError(trimmed)}`);
  } else if (Array.isArray(whole)) {
    for (const [index, item] of whole.entries()) reader.record(item, `${file}: item ${index + 1}`);
  } else if (isObject(whole) && !looksLikeRecord(whole)) {
    readKeyedObject(reader, whole, file);
  } else {
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const source = `${file}:${index + 1}`;
      const parsed = tryParse(line);
      if (parsed === undefined) reader.problem(source, null, `not valid JSON: ${parseError(line)}`);
      else reader.record(parsed, source);
    }
  }
  return reader.result();
}

/** An object of records keyed by instance id, or REPOCOD's `{repo: {repo_id: {…}}}`. */
function readKeyedObject(reader: PredictionReader, whole: Record<string, unknown>, file: string): void {
  for (const [key, value] of Object.entries(whole)) {
    if (isObject(value) && looksLikeRecord(value)) {
      reader.record({ instance_id: key, ...value }, `${file}: ${key}`);
      continue;
    }
    if (!isObject(value)) {
      reader.problem(`${file}: ${key}`, null, "expected a prediction record or REPOCOD's {repo_id: {…}} object");
      continue;
    }
    for (const [id, entry] of Object.entries(value)) reader.repocodRecord(key, entry, `${file}: ${key}/${id}`);
  }
}

const RECORD_KEYS = ['instance_id', 'model_patch', 'completion', 'model_name_or_path'];

function looksLikeRecord(value: Record<string, unknown>): boolean {
  return RECORD_KEYS.some((key) => key in value);
}

class PredictionReader {
  private readonly predictions: Prediction[] = [];
  private readonly problems: PredictionProblem[] = [];
  private readonly firstSource = new Map<string, string>();
  private readonly defaultModel: string;

  constructor(file: string) {
    this.defaultModel = basename(file).replace(/\.(jsonl|json)$/i, '');
  }

  problem(source: string, field: string | null, message: string): void {
    this.problems.push({ source, field, message });
  }

  record(value: unknown, source: string): void {
    if (!isObject(value)) {
      this.problem(source, null, 'expected a JSON object with instance_id and model_patch or completion');
      return;
    }
    const instanceId = value.instance_id;
    if (typeof instanceId !== 'string' || instanceId.trim() === '') {
      this.problem(source, 'instance_id', 'missing or not a non-empty string');
      return;
    }
    const model = value.model_name_or_path ?? this.defaultModel;
    if (typeof model !== 'string' || model.trim() === '') {
      this.problem(source, 'model_name_or_path', 'not a non-empty string');
      return;
    }
    const change = this.change(value, source);
    if (change === null) return;
    this.add({ target: { kind: 'instance', instanceId }, model, change, source }, `${model}\n${instanceId}`);
  }

  repocodRecord(repository: string, value: unknown, source: string): void {
    if (!isObject(value)) {
      this.problem(source, null, 'expected {function_name, prompt, output}');
      return;
    }
    const { function_name: functionName, prompt, output } = value;
    if (typeof functionName !== 'string' || functionName.trim() === '') {
      this.problem(source, 'function_name', 'missing or not a non-empty string');
      return;
    }
    if (prompt !== undefined && prompt !== null && typeof prompt !== 'string') {
      this.problem(source, 'prompt', 'not a string');
      return;
    }
    if (output !== undefined && output !== null && typeof output !== 'string') {
      this.problem(source, 'output', 'not a string');
      return;
    }
    const change: PredictionChange =
      typeof output === 'string' && output.trim() !== ''
        ? { kind: 'completion', completion: output }
        : { kind: 'empty' };
    const target = { kind: 'repocod' as const, repository, functionName, prompt: prompt ?? null };
    this.add({ target, model: this.defaultModel, change, source }, `${this.defaultModel}\n${source}`);
  }

  private change(value: Record<string, unknown>, source: string): PredictionChange | null {
    const patch = value.model_patch;
    const completion = value.completion;
    for (const [field, given] of [
      ['model_patch', patch],
      ['completion', completion],
    ] as const) {
      if (given !== undefined && given !== null && typeof given !== 'string') {
        this.problem(source, field, 'not a string (null or "" for an empty prediction)');
        return null;
      }
    }
    if (patch === undefined && completion === undefined) {
      this.problem(source, 'model_patch', 'neither model_patch (a diff) nor completion (code) is given');
      return null;
    }
    const filled = (text: unknown): text is string => typeof text === 'string' && text.trim() !== '';
    if (filled(patch) && filled(completion)) {
      this.problem(source, 'completion', 'both model_patch and completion are given: keep one');
      return null;
    }
    if (filled(patch)) return { kind: 'patch', patch };
    if (filled(completion)) return { kind: 'completion', completion };
    return { kind: 'empty' };
  }

  private add(prediction: Prediction, key: string): void {
    const first = this.firstSource.get(key);
    if (first !== undefined) {
      this.problem(
        prediction.source,
        'instance_id',
        `a second prediction by ${prediction.model} for the same task (the first, at ${first}, is kept)`,
      );
      return;
    }
    this.firstSource.set(key, prediction.source);
    this.predictions.push(prediction);
  }

  result(): ReadPredictions {
    return { predictions: this.predictions, problems: this.problems };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseError(text: string): string {
  try {
    JSON.parse(text);
    return 'unknown';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
