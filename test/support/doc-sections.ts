/**
 * Docs that tests keep honest: a generated section between two markers, and the example
 * of a diagnostic's section in docs/diagnostics.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const DOCS = path.join(__dirname, '..', '..', 'docs');

/**
 * Expects `docs/<file>` to hold `generated` between the markers; with UPDATE_DOCS=1 it
 * rewrites that part instead (the prose around it stays).
 * @example expectGeneratedSection('events.md', START, END, table)
 */
export function expectGeneratedSection(file: string, start: string, end: string, generated: string): void {
  const docFile = path.join(DOCS, file);
  const section = `${start}\n${generated}\n${end}`;
  const doc = fs.readFileSync(docFile, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (process.env.UPDATE_DOCS === '1' && from >= 0 && to > from) {
    fs.writeFileSync(docFile, doc.slice(0, from) + section + doc.slice(to + end.length));
    return;
  }
  expect(doc).toContain(section);
}

/**
 * The YAML example of a code's section in docs/diagnostics.md, as a whole policy.
 * @example lintText(diagnosticExample('prompts-unset'))
 */
export function diagnosticExample(code: string): string {
  const doc = fs.readFileSync(path.join(DOCS, 'diagnostics.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith(`${code}\n`)) ?? '';
  const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return `version: 1\nrules:\n${example.replace(/^/gm, '  ')}`;
}
