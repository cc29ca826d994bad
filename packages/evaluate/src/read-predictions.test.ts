import { describe, expect, it } from 'vitest';
import { parsePredictions } from './read-predictions.js';

describe('parsePredictions', () => {
  it('reads JSON lines, naming each malformed line and reading the others', () => {
    const text = [
      '{"instance_id": "a", "model_name_or_path": "m", "model_patch": "diff --git a/x b/x\\n"}',
      '{"instance_id": "b", "completion": "def f():\\n    return 1"}',
      '{"instance_id": "c", "model_patch": ""}',
      '{not json',
      '',
      '{"model_patch": "x"}',
      '{"instance_id": "d"}',
      '{"instance_id": "e", "model_patch": "p", "completion": "c"}',
      '{"instance_id": "f", "model_patch": 3}',
      '{"instance_id": "a", "model_name_or_path": "m", "model_patch": "again"}',
    ].join('\n');
    const read = parsePredictions(text, 'preds/run1.jsonl');
    expect(read.predictions.map((p) => [p.target, p.model, p.change.kind, p.source])).toEqual([
      [{ kind: 'instance', instanceId: 'a' }, 'm', 'patch', 'preds/run1.jsonl:1'],
      [{ kind: 'instance', instanceId: 'b' }, 'run1', 'completion', 'preds/run1.jsonl:2'],
      [{ kind: 'instance', instanceId: 'c' }, 'run1', 'empty', 'preds/run1.jsonl:3'],
    ]);
    expect(read.problems.map((p) => [p.source, p.field])).toEqual([
      ['preds/run1.jsonl:4', null],
      ['preds/run1.jsonl:6', 'instance_id'],
      ['preds/run1.jsonl:7', 'model_patch'],
      ['preds/run1.jsonl:8', 'completion'],
      ['preds/run1.jsonl:9', 'model_patch'],
      ['preds/run1.jsonl:10', 'instance_id'],
    ]);
    expect(read.problems[0]?.message).toMatch(/^not valid JSON: /);
    expect(read.problems[5]?.message).toContain('the first, at preds/run1.jsonl:1, is kept');
  });

  it('reads a JSON list and an object keyed by instance id', () => {
    const list = parsePredictions(
      JSON.stringify([{ instance_id: 'a', model_patch: 'p' }, 'oops', { instance_id: 'b', completion: null }]),
      'l.json',
    );
    expect(list.predictions.map((p) => [p.source, p.change.kind])).toEqual([
      ['l.json: item 1', 'patch'],
      ['l.json: item 3', 'empty'],
    ]);
    expect(list.problems.map((p) => p.source)).toEqual(['l.json: item 2']);
    const keyed = parsePredictions(JSON.stringify({ a: { model_patch: 'p', model_name_or_path: 'x' } }), 'k.json');
    expect(keyed.predictions[0]?.target).toEqual({ kind: 'instance', instanceId: 'a' });
    expect(keyed.predictions[0]?.model).toBe('x');
  });

  it("reads REPOCOD's {repo: {id: {function_name, prompt, output}}} as targets to match", () => {
    const text = JSON.stringify({
      seaborn: { '0': { function_name: 'Continuous.label', prompt: 'def label(self):', output: 'return 1' } },
      flask: { '3': { prompt: 'x', output: 'y' }, '4': { function_name: 'Flask.run', output: '' } },
    });
    const read = parsePredictions(text, 'gpt.json');
    expect(read.predictions.map((p) => [p.target, p.change.kind, p.model])).toEqual([
      [
        { kind: 'repocod', repository: 'seaborn', functionName: 'Continuous.label', prompt: 'def label(self):' },
        'completion',
        'gpt',
      ],
      [{ kind: 'repocod', repository: 'flask', functionName: 'Flask.run', prompt: null }, 'empty', 'gpt'],
    ]);
    expect(read.problems).toEqual([
      { source: 'gpt.json: flask/3', field: 'function_name', message: expect.any(String) },
    ]);
  });

  it('names a broken JSON list and an empty file', () => {
    expect(parsePredictions('[{"instance_id": "a",\n', 'x.json').problems[0]?.message).toMatch(/not a valid JSON list/);
    expect(parsePredictions('\n', 'x.jsonl').problems[0]?.message).toMatch(/the file is empty/);
  });
});
