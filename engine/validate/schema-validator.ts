/**
 * Compiles policy.schema.json with ajv. The build (scripts/build.mjs) replaces this module
 * with ajv's standalone code for the same schema and options, generated at build time, so
 * the runner's cache miss neither loads ajv nor compiles the schema (~100 ms); tests and
 * the sources use this runtime compile, which gives the same errors.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import policySchema from '../../policy.schema.json';

/** The options both compiles use (allErrors, verbose: errors carry their parentSchema). */
export const POLICY_SCHEMA_OPTIONS = { allErrors: true, verbose: true, allowUnionTypes: true, strict: true } as const;

/**
 * A new validator for the policy schema.
 * @example compilePolicySchema()({ version: 1 }) // true
 */
export function compilePolicySchema(): ValidateFunction {
  return new Ajv(POLICY_SCHEMA_OPTIONS).compile(policySchema);
}
