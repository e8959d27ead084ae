/**
 * A validator for SARIF logs against the SARIF 2.1.0 JSON schema. The schema is the one
 * @microsoft/jest-sarif ships (lib/schemas/sarif-2.1.0-rtm.5.json: SARIF 2.1.0 as
 * SchemaStore serves it), pinned in devDependencies; it is draft-04, hence ajv-draft-04,
 * and ajv-formats checks its formats (`uri`: helpUri must be absolute).
 */
import * as fs from 'node:fs';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';

const SCHEMA_FILE = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

/**
 * @example sarifValidator()(JSON.parse(sarifText)) // [] when valid, else `path message` lines
 */
export function sarifValidator(): (log: unknown) => string[] {
  // The schema's language-tag pattern is not a valid unicode regex (`[a-zA-Z]{2}]?`): read it as ECMAScript without the u flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));
  return (log) => (validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}
