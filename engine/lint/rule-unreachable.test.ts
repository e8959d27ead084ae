import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('rule-unreachable', () => {
  it.each([
    ['tools on a non-tool event', '    on: Stop\n    tools: Bash\n    block: x\n', ['4:9 rule-unreachable']],
    ['tools on the non-tool event of two', '    on: [PreToolUse, Stop]\n    tools: Bash\n    deny: x\n', ['4:22 rule-unreachable']],
    ['an MCP server with no tool segment', '    on: PreToolUse\n    tools: Write|mcp__memory\n    deny: x\n', ['5:18 rule-unreachable']],
    ['a regex in a tools list', '    on: PreToolUse\n    tools: [Write, "Edit.*"]\n    deny: x\n', ['5:21 rule-unreachable']],
    ['paths with Bash only: the files its commands write', '    on: PreToolUse\n    tools: Bash\n    paths: { deny: [".env"] }\n    deny: x\n', []],
    ['paths with a tool that touches none', '    on: PreToolUse\n    tools: WebFetch\n    paths: { deny: [".env"] }\n    deny: x\n', ['6:5 rule-unreachable']],
    ['paths on a non-tool event', '    on: Stop\n    paths: { deny: [".env"] }\n    block: x\n', ['5:5 rule-unreachable']],
    ['command with file tools', '    on: PreToolUse\n    tools: Write|Edit\n    command: rm\n    deny: x\n', ['6:5 rule-unreachable']],
    ['command on a non-tool event', '    on: Stop\n    command: rm\n    block: x\n', ['5:5 rule-unreachable']],
    ['MCP wildcards are fine', '    on: PreToolUse\n    tools: mcp__memory__*\n    deny: x\n', []],
    ['paths with a file tool', '    on: PreToolUse\n    tools: Bash|Write\n    paths: { deny: [".env"] }\n    deny: x\n', []],
    ['paths with a wildcard that catches a file tool', '    on: PreToolUse\n    tools: "*Edit"\n    paths: { deny: [".env"] }\n    deny: x\n', []],
    ['command with Bash', '    on: PreToolUse\n    tools: Bash\n    command: rm\n    deny: x\n', []],
    ['paths without tools', '    on: PreToolUse\n    paths: { deny: [".env"] }\n    deny: x\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'rule-unreachable')).toEqual(expected);
  });

  it('suggests the wildcard form', () => {
    const d = lintText(policy('    on: PreToolUse\n    tools: mcp__memory\n    deny: x\n')).find((x) => x.code === 'rule-unreachable');
    expect(d).toMatchObject({ severity: 'warning', hint: 'write mcp__memory__* for every tool of the server' });
  });
});
