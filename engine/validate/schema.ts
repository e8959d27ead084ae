/**
 * The policy JSON Schema, compiled once per process on first use.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import policySchema from '../../policy.schema.json';

let compiled: ValidateFunction | null = null;

/**
 * The compiled validator for policy.schema.json (allErrors, verbose: errors carry their parentSchema).
 * @example policyValidator()({ version: 1 }) // true
 */
export function policyValidator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true });
    compiled = ajv.compile(policySchema);
  }
  return compiled;
}

/** The schema itself, for editors and docs. */
export const POLICY_SCHEMA: Readonly<Record<string, unknown>> = policySchema;
