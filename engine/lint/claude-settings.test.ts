import { mergeClaudeSettings, parseClaudeSettings } from './claude-settings';

describe('parseClaudeSettings', () => {
  it('keeps the hooks table and skips malformed entries', () => {
    const text = JSON.stringify({
      permissions: { allow: [] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'policy hook', timeout: 5 }, 'junk'] }, 3], Bad: 'x' },
    });
    expect(parseClaudeSettings('s.json', text)).toEqual({
      settings: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'policy hook' }] }] } },
      diagnostics: [],
    });
  });

  it.each([['{ nope'], ['[1]']])('reports %s as settings-invalid at 1:1', (text) => {
    const { settings, diagnostics } = parseClaudeSettings('s.json', text);
    expect(settings).toBeNull();
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['s.json:1:1 settings-invalid']);
  });
});

describe('mergeClaudeSettings', () => {
  it('adds hooks together and keeps disableAllHooks', () => {
    const a = parseClaudeSettings('a', '{"hooks":{"Stop":[{"hooks":[{"command":"a"}]}]}}').settings!;
    const b = parseClaudeSettings('b', '{"disableAllHooks":true,"hooks":{"Stop":[{"hooks":[{"command":"b"}]}]}}').settings!;
    expect(mergeClaudeSettings([a, b])).toEqual({
      hooks: { Stop: [{ hooks: [{ command: 'a' }] }, { hooks: [{ command: 'b' }] }] },
      disableAllHooks: true,
    });
  });
});
