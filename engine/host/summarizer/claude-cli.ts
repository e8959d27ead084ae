/**
 * A prose summary from the headless Claude Code CLI (`claude -p`), found as its user has
 * it (PATH, then where its installers put it, or the path the policy gives). The CLI is a
 * Claude Code session of its own, so it must not run the project's hooks (which would
 * record and summarize it, and start this process again): it runs with every hook
 * disabled (`--settings {"disableAllHooks":true}`), no tools, no MCP server, nothing
 * saved, in an empty temp folder outside the project, with the marker the runner honours
 * (HOOKPOLICY_SUMMARIZER) and without CLAUDE_PROJECT_DIR. The prompt goes on stdin.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CompiledCliSummarizer } from '../../types';
import type { ModelAnswer } from './model-api';
import { SUMMARIZER_MARKER } from './start';

/** The most of the CLI's output kept. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * The executable `command` names: a path (project-relative, absolute or `~/`) as given, a
 * bare name on PATH, and for `claude` also where Claude Code's installers put it
 * (~/.claude/local/claude, ~/.local/bin/claude), as a shell alias would find it. Null when none.
 * @example findCommand('claude', { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/me' }, '/p') // '/usr/local/bin/claude'
 */
export function findCommand(command: string, env: Readonly<Record<string, string | undefined>>, projectRoot: string): string | null {
  const home = env.HOME ?? '';
  if (command.includes('/') || command.includes(path.sep)) {
    const given = command.startsWith('~/') && home ? path.join(home, command.slice(2)) : path.resolve(projectRoot, command);
    return executable(given) ? given : null;
  }
  const names = process.platform === 'win32' ? [command, `${command}.exe`] : [command];
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  if (command === 'claude' && home) dirs.push(path.join(home, '.claude', 'local'), path.join(home, '.local', 'bin'));
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (path.isAbsolute(candidate) && executable(candidate)) return candidate;
    }
  }
  return null;
}

function executable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The CLI's arguments: print mode, the model, one JSON result, and nothing of the
 * project's or the user's configuration that could act (hooks, tools, MCP servers).
 * @example claudeArgs('haiku') // ['-p', '--model', 'haiku', '--output-format', 'json', '--settings', '{"disableAllHooks":true}', ...]
 */
export function claudeArgs(model: string): string[] {
  return [
    '-p', '--model', model, '--output-format', 'json',
    '--settings', JSON.stringify({ disableAllHooks: true }),
    '--tools', '', '--strict-mcp-config', '--no-session-persistence',
  ];
}

/**
 * The CLI's environment: this one, with the loop-guard marker and without the project the
 * runner was given (the CLI's own session is about a temp folder).
 * @example claudeEnv({ PATH: '/bin', CLAUDE_PROJECT_DIR: '/p' }) // { PATH: '/bin', HOOKPOLICY_SUMMARIZER: '1' }
 */
export function claudeEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') out[k] = v;
  out[SUMMARIZER_MARKER] = '1';
  return out;
}

/**
 * Runs `binary -p` with the prompt on stdin and reads its JSON result; kills it at the
 * summarizer's timeout. Never rejects.
 * @example await askClaude('/usr/local/bin/claude', summarizer, prompt, process.env) // { ok: true, text: 'Built the JWT middleware; ...' }
 */
export async function askClaude(binary: string, s: CompiledCliSummarizer, prompt: string, env: Readonly<Record<string, string | undefined>>): Promise<ModelAnswer> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-summarizer-'));
  try {
    return await run(binary, s, prompt, env, cwd);
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function run(binary: string, s: CompiledCliSummarizer, prompt: string, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<ModelAnswer> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let timedOut = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(binary, claudeArgs(s.model), { cwd, env: claudeEnv(env), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (e) {
      resolve({ ok: false, error: `cannot start ${binary}: ${(e as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, s.timeoutMs);
    child.stdout?.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes <= MAX_OUTPUT_BYTES) out.push(c);
    });
    child.stderr?.on('data', (c: Buffer) => {
      if (Buffer.concat(err).length < 4096) err.push(c);
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(prompt);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `cannot start ${binary}: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        resolve({ ok: false, error: `${path.basename(binary)} -p gave no answer within ${s.timeoutMs} ms` });
        return;
      }
      resolve(cliAnswer(Buffer.concat(out).toString('utf8'), code, signal, Buffer.concat(err).toString('utf8'), path.basename(binary)));
    });
  });
}

/**
 * The summary in the CLI's `--output-format json` output (its `result`), or why there is none.
 * @example cliAnswer('{"type":"result","is_error":false,"result":"Built JWT."}', 0, null, '', 'claude') // { ok: true, text: 'Built JWT.' }
 */
export function cliAnswer(stdout: string, code: number | null, signal: string | null, stderr: string, name: string): ModelAnswer {
  const result = resultMessage(stdout);
  if (result && result.is_error !== true && typeof result.result === 'string') return { ok: true, text: result.result };
  const said = short(typeof result?.result === 'string' && result.result !== '' ? result.result : stderr || stdout);
  const how = signal ? `was ended by ${signal}` : code === 0 ? 'gave no result' : `exited with ${code}`;
  return { ok: false, error: `${name} -p ${how}${said ? `: ${said}` : ''}` };
}

/** The `result` message of the output: one JSON object, or (older versions) a list of messages. */
function resultMessage(stdout: string): { is_error?: unknown; result?: unknown } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim());
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const found = [...list].reverse().find((m) => m !== null && typeof m === 'object' && (m as { type?: unknown }).type === 'result');
  return (found as { is_error?: unknown; result?: unknown } | undefined) ?? null;
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
