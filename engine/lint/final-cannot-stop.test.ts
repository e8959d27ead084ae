import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('final-cannot-stop', () => {
  it.each([
    ['final on a warn rule', '    on: PreToolUse\n    warn: x\n    final: true\n', ['6:5 final-cannot-stop']],
    ['final on an ask rule', '    on: PreToolUse\n    ask: x\n    final: true\n', ['6:5 final-cannot-stop']],
    ['final on a record-only rule', '    on: Stop\n    record: { kind: k, text: t }\n    final: true\n', ['6:5 final-cannot-stop']],
    ['final on a deny rule', '    on: PreToolUse\n    deny: x\n    final: true\n', []],
    ['final on a block rule', '    on: Stop\n    block: x\n    final: true\n', []],
    ['final: false', '    on: PreToolUse\n    warn: x\n    final: false\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'final-cannot-stop')).toEqual(expected);
  });

  it('is a warning saying what the rule does, with a hint', () => {
    const d = lintText(policy('    on: Stop\n    record: { kind: k, text: t }\n    final: true\n')).find((x) => x.code === 'final-cannot-stop');
    expect(d).toMatchObject({ severity: 'warning', message: 'Rule "r" is final, but it only records: only a deny or a block stops the chain', hint: 'remove final, or make the rule deny or block' });
  });

  it('reports the example of docs/diagnostics.md', () => {
    expect(lintedAt(diagnosticExample('final-cannot-stop'), 'final-cannot-stop')).toHaveLength(1);
  });
});
