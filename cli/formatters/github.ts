/**
 * Lint output as GitHub Actions workflow commands, so problems show as annotations on
 * the pull request: `::error file=F,line=L,col=C,title=CODE::message`.
 */
import type { Severity } from '../../engine/types';
import { displayPath } from './format';
import type { Formatter } from './format';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/**
 * @example formatGithub([d], { cwd: '/p' }) // '::error file=p.yaml,line=4,col=9,title=outcome-impossible::Rule "r": ...\n'
 */
export const formatGithub: Formatter = (diagnostics, { cwd }) =>
  diagnostics.map((d) => {
    const props: string[] = [];
    if (d.file !== undefined) props.push(`file=${property(displayPath(d.file, cwd))}`);
    if (d.line) props.push(`line=${d.line}`, `col=${d.column ?? 1}`);
    props.push(`title=${property(d.code)}`);
    const text = d.hint ? `${d.message} (${d.hint})` : d.message;
    return `::${COMMAND[d.severity]} ${props.join(',')}::${data(text)}\n`;
  }).join('');

function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
