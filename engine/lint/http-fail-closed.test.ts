import { parseClaudeSettings } from './claude-settings';
import { lintedAt } from './fixture';

const http = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'http', url: 'http://127.0.0.1:7777/hook' }] }] };
const blocking = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'http', url: 'http://127.0.0.1:7777/hook', onFailure: 'block' }] }] };
const command = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'policy hook' }] }] };
const settingsOf = (hooks: object) => parseClaudeSettings('settings.json', JSON.stringify({ hooks })).settings;
const policy = (onError: string) => `version: 1\nsettings:\n  on_error: ${onError}\nrules:\n  - { id: r, on: PreToolUse, deny: x }\n`;

describe('http-fail-closed', () => {
  it.each([
    ['closed + http', 'closed', http, ['3:13 http-fail-closed']],
    ['open + http: an agent can stop the server', 'open', http, ['4:1 http-fail-closed']],
    ['closed + http with onFailure: block', 'closed', blocking, []],
    ['closed + command', 'closed', command, []],
  ])('%s', (_name, onError, hooks, expected) => {
    expect(lintedAt(policy(onError), 'http-fail-closed', { settings: settingsOf(hooks) })).toEqual(expected);
  });
});
