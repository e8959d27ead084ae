/**
 * Stage 2 of the pipeline: checks one loaded file against policy.schema.json and the
 * shape rules the schema cannot say (exactly one outcome per rule).
 */
import type { Diagnostic, LoadedFile } from './types';
import { policyValidator } from './validate/schema';
import { schemaDiagnostics } from './validate/schema-diagnostics';
import { ruleShapeDiagnostics } from './validate/rule-shape';

export { POLICY_SCHEMA } from './validate/schema';
export { didYouMean, closest, editDistance } from './validate/suggest';

/**
 * Diagnostics for one file, each positioned via the file's source map; [] when valid.
 * @example validatePolicyFile(file) // [{ code: 'schema-unknown-key', line: 5, column: 5, hint: 'did you mean "tools"?', ... }]
 */
export function validatePolicyFile(file: LoadedFile): Diagnostic[] {
  const validate = policyValidator();
  const schemaOk = validate(file.doc);
  const diagnostics = schemaOk ? [] : schemaDiagnostics(validate.errors ?? [], file.map);
  return [...diagnostics, ...ruleShapeDiagnostics(file.doc, file.map)];
}
