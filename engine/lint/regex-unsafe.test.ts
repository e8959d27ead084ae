import { lintText } from './fixture';

const MODIFIERS = (() => {
  try {
    return new RegExp('(?i:a)').test('A');
  } catch {
    return false;
  }
})();

const rule = (lines: string) => `version: 1\nrules:\n  - id: r\n    on: PreToolUse\n    tools: Bash\n${lines}    deny: x\n`;

describe('regex-unsafe', () => {
  it.each([
    ['a nested quantifier in command', rule('    command: "(a+)+$"\n'), ['6:14 regex-unsafe warning']],
    ['an item of a command list', rule('    command: ["^ls", "(x|x)*y"]\n'), ['6:22 regex-unsafe warning']],
    ['a backreference', rule('    command: "(a+)+\\\\1"\n'), ['6:14 regex-unsafe warning']],
    ['a let extract', rule('    let: { v: { file: a.txt, extract: "^(\\\\w+\\\\s?)*$" } }\n'), ['6:39 regex-unsafe warning']],
    ['a linear pattern', rule('    command: "\\\\brm\\\\s+-rf\\\\b"\n'), []],
    ['a regex literal in when', rule('    when: "$contains(tool_input.command, /(x|x)*y/)"\n'), ['6:42 regex-unsafe warning']],
    ['a regex literal in a let expr', rule('    let: { v: { expr: "$match(tool_input.command, /^(a+)+$/i)" } }\n'), ['6:51 regex-unsafe warning']],
    // JSONata compiles a literal with this Node's RegExp: before Node 23 this one is an invalid-expression.
    ['a modifier group in when', rule('    when: "tool_input.command ~> /(?i:a+)+$/"\n'), MODIFIERS ? ['6:34 regex-unsafe warning'] : []],
    ['a modifier group in command, on every Node', rule('    command: "(?i:a+)+$"\n'), ['6:14 regex-unsafe warning']],
    ['a linear regex in when', rule('    when: "$contains(tool_input.command, /\\\\brm\\\\s/)"\n'), []],
    ['a glob in paths', rule('    paths: { deny: ["src/**", "**/a*a*a*b/**"] }\n'), ['6:31 regex-unsafe warning']],
    ['a quadratic glob', rule('    paths: { deny: ["**/.ssh/**", "**/*.test.*"] }\n'), []],
    ['a wildcard in match', rule('    match: { tool_input.command: "*a*b*c*" }\n'), ['6:34 regex-unsafe warning']],
    ['a wildcard in tools', `version: 1\nrules:\n  - id: r\n    on: PreToolUse\n    tools: "Write|mcp__*__*__*"\n    deny: x\n`, ['5:12 regex-unsafe warning']],
    ['a wildcard in tools with two stars', `version: 1\nrules:\n  - id: r\n    on: PreToolUse\n    tools: "Write|mcp__*__*"\n    deny: x\n`, []],
  ])('%s', (_name, text, expected) => {
    const found = lintText(text).filter((d) => d.code === 'regex-unsafe').map((d) => `${d.line}:${d.column} ${d.code} ${d.severity}`);
    expect(found).toEqual(expected);
  });
});

describe('regex-unsafe on log.redact', () => {
  it('reports a pattern that can backtrack catastrophically at its place', () => {
    const text = 'version: 1\nsettings:\n  log:\n    redact: ["tk-\\\\w+", "(a|a)*$"]\nrules: []\n';
    const found = lintText(text).filter((d) => d.code === 'regex-unsafe').map((d) => `${d.line}:${d.column} ${d.severity} ${d.message}`);
    expect(found).toEqual([expect.stringMatching(/^4:25 warning log.redact pattern \/\(a\|a\)\*\$\/ can backtrack catastrophically \(a quantified group with alternation\); it runs under a 250 ms watchdog/)]);
  });
});
