import { compiledPolicy, compiledRule } from '../../test/support/compiled';
import { isInitMemSearch, memSearchCommand, policyInvocation, policyRecords } from './slash-command';

describe('policyRecords', () => {
  it('is true when a rule has a record action, false otherwise', () => {
    const recording = compiledRule({ id: 'observe', records: [{ kind: 'command', text: '{{command}}', importance: 0.5, fields: {} }] });
    expect(policyRecords(compiledPolicy([compiledRule(), recording]))).toBe(true);
    expect(policyRecords(compiledPolicy([compiledRule(), compiledRule({ id: 'x', records: [] })]))).toBe(false);
    expect(policyRecords(compiledPolicy([]))).toBe(false);
  });
});

describe('memSearchCommand', () => {
  it('runs exactly `policy memory show` on the quoted argument, and allows only that command', () => {
    const text = memSearchCommand(policyInvocation(true));
    expect(text.split('\n').slice(0, 5)).toEqual([
      '---',
      'description: Show one record of this project\'s memory in full (the id a memory notice or `policy memory list` shows)',
      'argument-hint: <id>',
      'allowed-tools: Bash(npx --no-install policy memory show:*)',
      '---',
    ]);
    expect(text).toContain("\n!`npx --no-install policy memory show '$ARGUMENTS'`\n");
    expect(text.match(/!`/g)).toHaveLength(1);
    expect(memSearchCommand(policyInvocation(false))).toContain("!`policy memory show '$ARGUMENTS'`");
  });

  it('recognizes its own files, unchanged, and no other', () => {
    expect(isInitMemSearch(memSearchCommand('policy'))).toBe(true);
    expect(isInitMemSearch(memSearchCommand('npx --no-install policy'))).toBe(true);
    expect(isInitMemSearch(`${memSearchCommand('policy')}\nmy notes\n`)).toBe(false);
  });
});
