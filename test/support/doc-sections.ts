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
 * The YAML example of a code's section in docs/diagnostics.md, as a whole policy: a list
 * of rules goes under `rules:`, a whole file (top-level keys) gets `version: 1` when it
 * has none.
 * @example lintText(diagnosticExample('prompts-unset'))
 */
export function diagnosticExample(code: string): string {
  return asPolicy(diagnosticBlock(code, 'yaml'));
}

/**
 * The YAML example of a code's section as policy files: each `# name.yaml` line starts a
 * file; an example without such lines is `p.yaml`. The first file is the root.
 * @example diagnosticExampleFiles('include-cycle') // { 'a.yaml': ..., 'b.yaml': ... }
 */
export function diagnosticExampleFiles(code: string): Record<string, string> {
  const parts = diagnosticBlock(code, 'yaml').split(/^# (\S+\.ya?ml)\n/m);
  if (parts.length === 1) return { 'p.yaml': asPolicy(parts[0]) };
  const files: Record<string, string> = {};
  for (let i = 1; i < parts.length; i += 2) files[parts[i]] = asPolicy(parts[i + 1]);
  return files;
}

/**
 * The first ```lang block of a code's section in docs/diagnostics.md, as written ('' when
 * the section has none).
 * @example diagnosticBlock('settings-invalid', 'json') // '{ "hooks": { "Stop": [ ] }, }\n'
 */
export function diagnosticBlock(code: string, lang: string): string {
  const doc = fs.readFileSync(path.join(DOCS, 'diagnostics.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith(`${code}\n`)) ?? '';
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';
}

function asPolicy(example: string): string {
  if (!example.startsWith('-')) return /^version:/m.test(example) ? example : `version: 1\n${example}`;
  return `version: 1\nrules:\n${example.replace(/^/gm, '  ')}`;
}

/**
 * The ```yaml blocks of `docs/<file>` between a heading (written with its #s) and the next
 * heading of the same level or above.
 * @example yamlBlocks('paths.md', '### The sandbox') // ['- id: tester-writes-tests-only\n...', ...]
 */
export function yamlBlocks(file: string, heading: string): string[] {
  const doc = fs.readFileSync(path.join(DOCS, file), 'utf8');
  const level = heading.split(' ')[0].length;
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no "${heading}" in ${file}`);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}
