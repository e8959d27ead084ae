import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('template-unknown-value', () => {
  it.each([
    ['an event field the event lacks', '    on: PreToolUse\n    deny: "team {{team_name}}"\n', ['5:17 template-unknown-value']],
    ['{{path}} on a non-tool event', '    on: Stop\n    block: "fix {{path}}"\n', ['5:17 template-unknown-value']],
    ['{{tool_input.x}} on a non-tool event', '    on: TeammateIdle\n    block: "{{ tool_input.file_path }}"\n', ['5:13 template-unknown-value']],
    ['{{unmet}} without require', '    on: Stop\n    block: "missing: {{unmet}}"\n', ['5:22 template-unknown-value']],
    ['a templated path', '    on: PreToolUse\n    only_if_exists: ".agent/{{teammate_name}}"\n    deny: x\n', ['5:29 template-unknown-value']],
    ['a require file', '    on: Stop\n    require:\n      - file: "notes/{{tool_name}}.md"\n    block: x\n', ['6:22 template-unknown-value']],
    ['a let glob', '    on: Stop\n    let:\n      n: { newest: "{{prompt}}/*.md" }\n    block: "{{n}}"\n', ['6:21 template-unknown-value']],
    ['fields the event carries', '    on: TeammateIdle\n    block: "{{teammate_name}} of {{team_name}} in {{cwd}}"\n', []],
    ['special names and env', '    on: Stop\n    block: "{{agent}} {{event}} {{rule}} {{project}} {{env.HOME}}"\n', []],
    ['let values and their parts', '    on: Stop\n    let:\n      gc: { file: a.md }\n    block: "{{gc}} {{gc.path}} {{gc.dir}}"\n', []],
    ['{{unmet}} with require', '    on: Stop\n    require: [{ file: a.md }]\n    block: "{{unmet}}"\n', []],
    ['tool values on a tool event', '    on: PreToolUse\n    deny: "{{tool}} {{path}} {{command}} {{tool_input.url}}"\n', []],
    ['a field one of the events carries', '    on: [PreToolUse, TeammateIdle]\n    deny: "{{team_name}}"\n', []],
    ['a record\'s text', '    on: SessionEnd\n    record: { kind: end, text: "{{tool}} ended" }\n', ['5:33 template-unknown-value']],
    ['a field of a listed record', '    on: Stop\n    record:\n      - { kind: k, text: t, fields: { f: "{{prompt}}" } }\n', ['6:43 template-unknown-value']],
    ['a search let', '    on: Stop\n    let:\n      r: { search: "{{prompt}}" }\n    context: "{{r}}"\n', ['6:21 template-unknown-value']],
    ['a record with values its events carry and store-let parts', '    on: [SessionEnd, PostToolUse]\n    let:\n      seen: { last: k, optional: true }\n    record: { kind: "{{event}}", text: "{{reason}} {{paths}} {{seen.at}} {{seen.fields.x}}" }\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'template-unknown-value')).toEqual(expected);
  });

  it('says which field is missing', () => {
    const d = lintText(policy('    on: PreToolUse\n    deny: "{{team_name}}"\n')).find((x) => x.code === 'template-unknown-value');
    expect(d?.message).toBe('Rule "r": {{team_name}} has no value: PreToolUse carries no field "team_name"');
  });
});
