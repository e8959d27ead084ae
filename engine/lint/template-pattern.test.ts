import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('template-pattern', () => {
  it.each([
    ['a require glob that asks for a pattern', '    on: TeammateIdle\n    require:\n      - { file: "t/**/{{glob:teammate_name}}/L1.md" }\n    block: x\n', ['6:23 template-pattern']],
    ['a newest glob that asks for a pattern', '    on: TeammateIdle\n    let: { gc: { newest: "t/{{glob:team_name}}/*.md" } }\n    context: "{{gc}}"\n', ['5:29 template-pattern']],
    ['the prefix in a message', '    on: TeammateIdle\n    block: "{{glob:teammate_name}} waits"\n', ['5:13 template-pattern']],
    // the default, a value as written, is what a templated path should be: nothing to note
    ['a plain template in a require glob', '    on: TeammateIdle\n    require:\n      - { file: "t/**/{{teammate_name}}/L1.md" }\n    block: x\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'template-pattern')).toEqual(expected);
  });

  it('is a note naming the value, and template-unknown-value reads the name behind the prefix', () => {
    const diagnostics = lintText(policy('    on: TeammateIdle\n    require:\n      - { file: "t/**/{{glob:teammate_name}}/L1.md" }\n    block: x\n'));
    expect(diagnostics.map((d) => d.code)).toEqual(['template-pattern']);
    expect(diagnostics[0]).toMatchObject({
      severity: 'info',
      message: 'Rule "r": {{glob:teammate_name}} reads teammate_name as a glob pattern: a value such as "*" or "{a,b}" also matches other names\' files',
      hint: 'write {{teammate_name}} to match the value as written',
    });
  });

  it('reports the example of docs/diagnostics.md', () => {
    expect(lintedAt(diagnosticExample('template-pattern'), 'template-pattern')).toHaveLength(1);
  });
});
