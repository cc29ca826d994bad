import { Field, List, Null, Schema, Struct, Utf8 } from 'apache-arrow';
import type { DataType } from 'apache-arrow';

const text = (name: string): Field => new Field(name, new Utf8(), true);
const empty = (name: string): Field => new Field(name, new Null(), true);
const pair = (name: string): Field => new Field(name, new Struct([text('code'), text('test')]), true);

/**
 * The Arrow schema of a release, exactly the features of REPOCOD_Lite_Unified (datasets/seed): the
 * patch and statement pairs as structs, FAIL_TO_PASS as a list of strings, and the columns the seed
 * leaves empty (test_patch, pre_scripts, hints_text, created_at, PASS_TO_PASS) Arrow null-typed.
 */
export const RELEASE_SCHEMA = new Schema([
  text('instance_id'),
  text('version'),
  pair('gold_patches'),
  empty('test_patch'),
  pair('pre_patches'),
  empty('pre_scripts'),
  text('repo'),
  text('base_commit'),
  text('base_commit_timestamp'),
  empty('hints_text'),
  empty('created_at'),
  pair('problem_statement'),
  text('environment_setup_commit'),
  new Field(
    'evaluation',
    new Struct([new Field('FAIL_TO_PASS', new List(new Field('item', new Utf8(), true)), true), empty('PASS_TO_PASS')]),
    true,
  ),
]);

/** A feature as a Hugging Face dataset card writes it in `dataset_info.features`. */
export type CardFeature =
  | { readonly name: string; readonly dtype: string }
  | { readonly name: string; readonly struct: readonly CardFeature[] }
  | { readonly name: string; readonly sequence: string };

/** The card features of an Arrow schema, in the card's own notation (`string`, `'null'`, `struct`, `sequence`). */
export function cardFeatures(schema: Schema = RELEASE_SCHEMA): CardFeature[] {
  return schema.fields.map((field) => cardFeature(field.name, field.type));
}

function cardFeature(name: string, type: DataType): CardFeature {
  if (type instanceof Utf8) return { name, dtype: 'string' };
  if (type instanceof Null) return { name, dtype: 'null' };
  if (type instanceof Struct)
    return { name, struct: type.children.map((child) => cardFeature(child.name, child.type)) };
  if (type instanceof List) {
    const item = type.children[0]?.type;
    if (item instanceof Utf8) return { name, sequence: 'string' };
  }
  throw new Error(`${name}: no dataset card notation for the Arrow type ${String(type)}`);
}
