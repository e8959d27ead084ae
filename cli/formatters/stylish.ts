/**
 * The default lint output: diagnostics grouped per file, one aligned line each
 * (`  line:col  severity  message  code`), then a summary line.
 */
import type { Diagnostic, Severity } from '../../engine/types';
import { palette, type Palette } from '../color';
import { countSeverities, displayPath } from './format';
import type { Formatter } from './format';

/**
 * With `color`, as ESLint's: the file underlined, positions, codes and hints dim, the
 * severity red, yellow or cyan, the summary bold in the colour of its worst severity.
 * @example formatStylish([d], { cwd: '/p' })
 *   // 'p.yaml\n  4:9  error  Rule "r": block has no effect on SubagentStart  outcome-impossible\n\n1 problem (1 error, 0 warnings)\n'
 */
export const formatStylish: Formatter = (diagnostics, { cwd, color }) => {
  if (diagnostics.length === 0) return '';
  const c = palette(color);
  const severity: Record<Severity, (text: string) => string> = { error: c.red, warning: c.yellow, info: c.cyan };
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = d.file === undefined ? '' : displayPath(d.file, cwd);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(d);
  }
  const out: string[] = [];
  for (const [file, list] of groups) {
    out.push(file === '' ? '(no file)' : c.underline(file));
    const rows = list.map((d) => [d.line ? `${d.line}:${d.column ?? 1}` : '0:0', d.severity, oneLine(d.message), d.code]);
    const width = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
    rows.forEach((r, i) => {
      // Padded outside the colour codes, so that columns line up the same with or without them.
      const cells = [cell(r[0], width[0], c.dim), cell(r[1], width[1], severity[list[i].severity]), cell(r[2], width[2]), c.dim(r[3])];
      out.push(`  ${cells.join('  ')}`);
      const hint = list[i].hint;
      if (hint) out.push(`  ${''.padEnd(width[0])}  ${''.padEnd(width[1])}  ${c.dim(`hint: ${hint}`)}`);
    });
    out.push('');
  }
  out.push(summary(diagnostics, c));
  return `${out.join('\n')}\n`;
};

function cell(text: string, width: number, paint: (text: string) => string = (t) => t): string {
  return paint(text) + ' '.repeat(width - text.length);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function summary(diagnostics: readonly Diagnostic[], c: Palette): string {
  const { errors, warnings, infos } = countSeverities(diagnostics);
  const n = diagnostics.length;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos > 0) parts.push(`${infos} info`);
  const paint = errors > 0 ? c.red : warnings > 0 ? c.yellow : c.cyan;
  return c.bold(paint(`${plural(n, 'problem')} (${parts.join(', ')})`));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
