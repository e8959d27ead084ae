import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n    on: PreToolUse\n${rule}`;

describe('allow-covers-every-path', () => {
  it.each([
    ['an allow rule with paths', '    tools: Write\n    paths: { deny: ["docs/**"] }\n    allow: ok\n', ['6:5 allow-covers-every-path']],
    ['an allow rule over Bash', '    tools: Bash\n    paths: { deny: ["docs/**"] }\n    allow: ok\n', ['6:5 allow-covers-every-path']],
    ['an allow rule without paths', '    tools: Read\n    allow: ok\n', []],
    ['a deny rule with paths', '    tools: Write\n    paths: { deny: ["docs/**"] }\n    deny: no\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'allow-covers-every-path')).toEqual(expected);
  });

  it('is info, saying what a shell command must do to be approved', () => {
    const d = lintText(policy('    tools: Write|Bash\n    paths: { deny: ["docs/**"] }\n    allow: ok\n')).find((x) => x.code === 'allow-covers-every-path');
    expect(d).toMatchObject({
      severity: 'info',
      message: 'Rule "r" approves a call only when its paths cover every path the call touches: every file a Bash command writes, all of them known',
      hint: expect.stringContaining('neither approved nor refused by it'),
    });
  });

  it('reads a wildcard tool that matches the shell', () => {
    const d = lintText(policy('    tools: "*"\n    paths: { deny: ["docs/**"] }\n    allow: ok\n')).find((x) => x.code === 'allow-covers-every-path');
    expect(d?.message).toMatch(/every file a Bash command writes/);
  });

  it('reports the example of docs/diagnostics.md', () => {
    const text = diagnosticExample('allow-covers-every-path');
    expect(lintText(text).filter((d) => d.severity === 'error')).toEqual([]);
    expect(lintedAt(text, 'allow-covers-every-path')).toHaveLength(1);
  });
});
