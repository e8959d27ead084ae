/**
 * `--output-file FILE` of lint and test: the report goes to FILE instead of stdout, its
 * folders created as needed (as ESLint does). The exit code does not depend on where.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * Writes the report; returns null, or why it could not (a usage error for the command).
 * @example writeReportFile('/p/reports/lint.sarif', text) // null
 */
export function writeReportFile(file: string, report: string): string | null {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, report);
    return null;
  } catch (e) {
    return `cannot write the report to ${file}: ${(e as Error).message}`;
  }
}
