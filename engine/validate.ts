/**
 * Stage 2 of the pipeline: checks one loaded file against policy.schema.json and the
 * shape rules the schema cannot say (exactly one outcome per rule).
 */
import type { Diagnostic, LoadedFile, PlacedDiagnostic } from './types';
import { policyValidator } from './validate/schema';
import { placedSchemaDiagnostics } from './validate/schema-diagnostics';
import { placedRuleShapeDiagnostics } from './validate/rule-shape';
import { placedSummarizerDiagnostics } from './validate/summarizer-shape';

export { POLICY_SCHEMA } from './validate/schema';
export { didYouMean, closest, editDistance } from './validate/suggest';

/**
 * Diagnostics for one file, each positioned via the file's source map; [] when valid.
 * @example validatePolicyFile(file) // [{ code: 'schema-unknown-key', line: 5, column: 5, hint: 'did you mean "tools"?', ... }]
 */
export function validatePolicyFile(file: LoadedFile): Diagnostic[] {
  return validatePlaced(file).map((p) => p.diagnostic);
}

/**
 * validatePolicyFile, each diagnostic placed at what it is about, so that the build
 * leaves out only what it breaks (see PlacedDiagnostic): a rule's unknown key breaks that
 * rule, a settings value the policy, an unknown top-level key the file.
 * @example validatePlaced(file) // [{ diagnostic: { code: 'schema-unknown-key', ... }, file: 'p.yaml', pointer: '/rules/0/tool' }]
 */
export function validatePlaced(file: LoadedFile): PlacedDiagnostic[] {
  const validate = policyValidator();
  const schemaOk = validate(file.doc);
  const found = schemaOk ? [] : placedSchemaDiagnostics(validate.errors ?? [], file.map);
  return [...found, ...placedRuleShapeDiagnostics(file.doc, file.map), ...placedSummarizerDiagnostics(file.doc, file.map)].map((p) => ({ ...p, file: file.file }));
}
