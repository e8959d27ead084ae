/**
 * Lint output as SARIF 2.1.0 (one run; one reporting rule per diagnostic code, with an
 * absolute link to its docs section), for code-scanning dashboards. Valid against the
 * SARIF 2.1.0 JSON schema (sarif-schema.test.ts).
 */
import { DIAGNOSTIC_CODES } from '../../engine/diagnostics';
import type { DiagnosticCodeInfo } from '../../engine/diagnostics';
import type { Severity } from '../../engine/types';
import { diagnosticHelpUri } from './docs-url';
import { displayPath } from './format';
import type { Formatter } from './format';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * @example JSON.parse(formatSarif([d], { cwd: '/p' })).runs[0].results[0].ruleId // 'outcome-impossible'
 */
export const formatSarif: Formatter = (diagnostics, { cwd, toolVersion }) => {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const rules = codes.map((code) => {
    const info = (DIAGNOSTIC_CODES as Record<string, DiagnosticCodeInfo | undefined>)[code];
    return {
      id: code,
      shortDescription: { text: info?.title ?? code },
      helpUri: diagnosticHelpUri(code),
      defaultConfiguration: { level: LEVEL[info?.severity ?? 'error'] },
    };
  });
  const results = diagnostics.map((d) => {
    const result: Record<string, unknown> = {
      ruleId: d.code,
      ruleIndex: codes.indexOf(d.code),
      level: LEVEL[d.severity],
      message: { text: d.hint ? `${d.message} (${d.hint})` : d.message },
    };
    if (d.file !== undefined) {
      const physicalLocation: Record<string, unknown> = { artifactLocation: { uri: encodeURI(displayPath(d.file, cwd)) } };
      if (d.line && d.line >= 1) physicalLocation.region = { startLine: d.line, startColumn: Math.max(1, d.column ?? 1) };
      result.locations = [{ physicalLocation }];
    }
    return result;
  });
  const driver: Record<string, unknown> = { name: 'hookpolicy', rules };
  if (toolVersion) driver.version = toolVersion;
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
