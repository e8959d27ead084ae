import { lintText } from './fixture';

const rule = (lines: string) => `version: 1\nrules:\n  - id: r\n    on: PreToolUse\n    tools: Bash\n${lines}    deny: x\n`;

describe('regex-unsafe', () => {
  it.each([
    ['a nested quantifier in command', rule('    command: "(a+)+$"\n'), ['6:14 regex-unsafe warning']],
    ['an item of a command list', rule('    command: ["^ls", "(x|x)*y"]\n'), ['6:22 regex-unsafe warning']],
    ['a backreference', rule('    command: "(a+)+\\\\1"\n'), ['6:14 regex-unsafe warning']],
    ['a let extract', rule('    let: { v: { file: a.txt, extract: "^(\\\\w+\\\\s?)*$" } }\n'), ['6:39 regex-unsafe warning']],
    ['a linear pattern', rule('    command: "\\\\brm\\\\s+-rf\\\\b"\n'), []],
  ])('%s', (_name, text, expected) => {
    const found = lintText(text).filter((d) => d.code === 'regex-unsafe').map((d) => `${d.line}:${d.column} ${d.code} ${d.severity}`);
    expect(found).toEqual(expected);
  });
});
