/**
 * The default lint output: diagnostics grouped per file, one aligned line each
 * (`  line:col  severity  message  code`), then a summary line.
 */
import type { Diagnostic } from '../../engine/types';
import { countSeverities, displayPath } from './format';
import type { Formatter } from './format';

/**
 * @example formatStylish([d], { cwd: '/p' })
 *   // 'p.yaml\n  4:9  error  Rule "r": block has no effect on SubagentStart  outcome-impossible\n\n1 problem (1 error, 0 warnings)\n'
 */
export const formatStylish: Formatter = (diagnostics, { cwd }) => {
  if (diagnostics.length === 0) return '';
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = d.file === undefined ? '' : displayPath(d.file, cwd);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(d);
  }
  const out: string[] = [];
  for (const [file, list] of groups) {
    out.push(file === '' ? '(no file)' : file);
    const rows = list.map((d) => [d.line ? `${d.line}:${d.column ?? 1}` : '0:0', d.severity, oneLine(d.message), d.code]);
    const width = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
    rows.forEach((r, i) => {
      out.push(`  ${r[0].padEnd(width[0])}  ${r[1].padEnd(width[1])}  ${r[2].padEnd(width[2])}  ${r[3]}`);
      const hint = list[i].hint;
      if (hint) out.push(`  ${''.padEnd(width[0])}  ${''.padEnd(width[1])}  hint: ${hint}`);
    });
    out.push('');
  }
  out.push(summary(diagnostics));
  return `${out.join('\n')}\n`;
};

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function summary(diagnostics: readonly Diagnostic[]): string {
  const { errors, warnings, infos } = countSeverities(diagnostics);
  const n = diagnostics.length;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos > 0) parts.push(`${infos} info`);
  return `${plural(n, 'problem')} (${parts.join(', ')})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
