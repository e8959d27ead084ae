/**
 * The policy JSON Schema, compiled once per process on first use.
 */
import type { ValidateFunction } from 'ajv';
import policySchema from '../../policy.schema.json';
import { compilePolicySchema } from './schema-validator';

let compiled: ValidateFunction | null = null;

/**
 * The compiled validator for policy.schema.json (allErrors, verbose: errors carry their parentSchema).
 * @example policyValidator()({ version: 1 }) // true
 */
export function policyValidator(): ValidateFunction {
  if (!compiled) compiled = compilePolicySchema();
  return compiled;
}

/** The schema itself, for editors and docs. */
export const POLICY_SCHEMA: Readonly<Record<string, unknown>> = policySchema;
