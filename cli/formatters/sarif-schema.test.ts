/**
 * `policy lint --format sarif` against the SARIF 2.1.0 JSON schema (test/support/sarif-schema.ts).
 */
import * as path from 'path';
import type { Diagnostic } from '../../engine/types';
import { sarifValidator } from '../../test/support/sarif-schema';
import { formatSarif } from './sarif';

const cwd = path.resolve('/proj');
const file = path.join(cwd, '.claude', 'policies.yaml');

describe('SARIF output', () => {
  const validate = sarifValidator();

  it('validates against the SARIF 2.1.0 schema, whatever the diagnostics hold', () => {
    const diagnostics: Diagnostic[] = [
      { code: 'outcome-impossible', severity: 'error', message: 'Rule "r": block has no effect', file, line: 4, column: 9, hint: 'use warn' },
      { code: 'rule-shadowed', severity: 'warning', message: 'multi\nline <&>', file: path.resolve('/elsewhere/a b/ü.yaml'), line: 1, column: 1 },
      { code: 'prompts-unset', severity: 'info', message: 'an info', file: '<stdin>', line: 2, column: 3 },
      { code: 'settings-invalid', severity: 'error', message: 'no position', file: path.join(cwd, 's.json') },
      { code: 'no-policy', severity: 'error', message: 'no file at all' },
      { code: 'policy-not-found', severity: 'error', message: 'line 0', file, line: 0, column: 0 },
    ];
    expect(validate(JSON.parse(formatSarif(diagnostics, { cwd, toolVersion: '0.1.0' })))).toEqual([]);
    expect(validate(JSON.parse(formatSarif([], { cwd })))).toEqual([]);
  });

  it('is checked for absolute helpUris (a relative one fails the schema)', () => {
    const log = JSON.parse(formatSarif([{ code: 'yaml-syntax', severity: 'error', message: 'm', file, line: 1, column: 1 }], { cwd }));
    log.runs[0].tool.driver.rules[0].helpUri = 'docs/diagnostics.md#yaml-syntax';
    expect(validate(log)).toEqual(['/runs/0/tool/driver/rules/0/helpUri must match format "uri"']);
  });
});
