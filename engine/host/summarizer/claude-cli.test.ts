import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeClaudeRuns, writeFakeClaude } from '../../../test/support/fake-claude';
import type { CompiledCliSummarizer } from '../../types';
import { askClaude, claudeArgs, claudeEnv, cliAnswer, findCommand } from './claude-cli';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-claude-cli-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const cli = (extra: Partial<CompiledCliSummarizer> = {}): CompiledCliSummarizer => ({ via: 'command', command: 'claude', model: 'haiku', timeoutMs: 10_000, maxPromptChars: 24_000, ...extra });

describe('findCommand', () => {
  it('a bare name on PATH, in PATH order; a file that is not executable is passed over', () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    fs.mkdirSync(a);
    writeFakeClaude(b);
    fs.writeFileSync(path.join(a, 'claude'), 'not executable', { mode: 0o644 });
    expect(findCommand('claude', { PATH: `${a}${path.delimiter}${b}` }, '/p')).toBe(path.join(b, 'claude'));
    expect(findCommand('claude', { PATH: a }, '/p')).toBeNull();
  });

  it('claude also where its installers put it (~/.claude/local, ~/.local/bin), as a shell alias finds it', () => {
    const home = path.join(tmp, 'home');
    writeFakeClaude(path.join(home, '.local', 'bin'));
    expect(findCommand('claude', { PATH: '', HOME: home }, '/p')).toBe(path.join(home, '.local', 'bin', 'claude'));
    writeFakeClaude(path.join(home, '.claude', 'local'));
    expect(findCommand('claude', { PATH: '', HOME: home }, '/p')).toBe(path.join(home, '.claude', 'local', 'claude'));
    expect(findCommand('other', { PATH: '', HOME: home }, '/p')).toBeNull();
  });

  it('a path: project-relative, absolute or ~/', () => {
    const bin = writeFakeClaude(path.join(tmp, 'tools'), 'my-claude');
    expect(findCommand('tools/my-claude', { PATH: '' }, tmp)).toBe(bin);
    expect(findCommand(bin, { PATH: '' }, '/elsewhere')).toBe(bin);
    expect(findCommand('~/tools/my-claude', { PATH: '', HOME: tmp }, '/elsewhere')).toBe(bin);
    expect(findCommand('tools/none', { PATH: '' }, tmp)).toBeNull();
  });
});

describe('the CLI\'s command line and environment', () => {
  it('print mode, JSON, every hook disabled, no tools, no MCP server, nothing saved', () => {
    expect(claudeArgs('haiku')).toEqual(['-p', '--model', 'haiku', '--output-format', 'json', '--settings', '{"disableAllHooks":true}', '--tools', '', '--strict-mcp-config', '--no-session-persistence']);
  });

  it('the loop-guard marker, and not the runner\'s project', () => {
    expect(claudeEnv({ PATH: '/bin', CLAUDE_PROJECT_DIR: '/p', ANTHROPIC_API_KEY: 'k', UNSET: undefined })).toEqual({ PATH: '/bin', ANTHROPIC_API_KEY: 'k', HOOKPOLICY_SUMMARIZER: '1' });
  });
});

describe('cliAnswer', () => {
  it.each([
    ['the result', '{"type":"result","subtype":"success","is_error":false,"result":"Built JWT."}', 0, { ok: true, text: 'Built JWT.' }],
    ['a list of messages (older versions)', '[{"type":"system"},{"type":"result","is_error":false,"result":"Built JWT."}]', 0, { ok: true, text: 'Built JWT.' }],
    ['is_error', '{"type":"result","is_error":true,"result":"Invalid API key · Please run /login"}', 1, { ok: false, error: 'claude -p exited with 1: Invalid API key · Please run /login' }],
    ['not JSON', 'Error: unknown option', 1, { ok: false, error: 'claude -p exited with 1: Error: unknown option' }],
  ] as const)('%s', (_, stdout, code, expected) => {
    expect(cliAnswer(stdout, code, null, '', 'claude')).toEqual(expected);
  });
});

describe('askClaude with a stand-in CLI', () => {
  const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', FAKE_CLAUDE_LOG: path.join(tmp, 'runs.jsonl'), CLAUDE_PROJECT_DIR: '/the/project', ...extra });

  it('sends the prompt on stdin, from an empty temp folder (removed after), with the marker and without the project', async () => {
    const bin = writeFakeClaude(path.join(tmp, 'bin'));
    const answer = await askClaude(bin, cli({ model: 'claude-haiku-4-5' }), 'Summarize:\n[10:00] command: ls', env());
    expect(answer).toEqual({ ok: true, text: 'Prose summary from the CLI.' });
    const [run] = fakeClaudeRuns(path.join(tmp, 'runs.jsonl'));
    expect(run.argv).toEqual(claudeArgs('claude-haiku-4-5'));
    expect(run.prompt).toBe('Summarize:\n[10:00] command: ls');
    expect(run.marker).toBe('1');
    expect(run.projectDir).toBeNull();
    expect(path.basename(run.cwd)).toMatch(/^hookpolicy-summarizer-/);
    expect(fs.existsSync(run.cwd)).toBe(false);
  });

  it('an error result and an exit are reasons; a CLI that never answers is killed at the timeout', async () => {
    const bin = writeFakeClaude(path.join(tmp, 'bin'));
    expect(await askClaude(bin, cli(), 'p', env({ FAKE_CLAUDE_MODE: 'error' }))).toEqual({ ok: false, error: 'claude -p gave no result: Invalid API key' });
    expect(await askClaude(bin, cli(), 'p', env({ FAKE_CLAUDE_MODE: 'exit' }))).toEqual({ ok: false, error: 'claude -p exited with 1: error: unknown option --tools' });
    const started = Date.now();
    expect(await askClaude(bin, cli({ timeoutMs: 1000 }), 'p', env({ FAKE_CLAUDE_MODE: 'slow' }))).toEqual({ ok: false, error: 'claude -p gave no answer within 1000 ms' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a binary that cannot be started is a reason', async () => {
    const answer = await askClaude(path.join(tmp, 'missing'), cli(), 'p', env());
    expect(answer).toEqual({ ok: false, error: expect.stringMatching(/^cannot start .*missing: .*ENOENT/) });
  });
});
