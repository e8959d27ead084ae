/**
 * The policy server holds what the command runner holds, as the confined agent attacks it
 * (issue 29), through the built CLI: sessions of two projects, each with an install of its
 * own (a copy of this package and of the packages it loads at run time), share one server
 * on the port; a stand-in for each session's Claude Code runs the hooks and posts the events.
 * - a session's events are judged by its own install's code, and its self-protection
 *   guards that install (the agent rewriting its project's node_modules/mvdan-sh had no
 *   decision, the server guarding the first project's install instead);
 * - an install rewritten in one project never judges another project's events;
 * - the agent's `curl` to the server is refused and recorded nowhere;
 * - a session registered again with its lanes switched off keeps the environment it started with;
 * - a server started with NODE_OPTIONS, or stopped (`kill -STOP`), is replaced at the next
 *   prompt instead of answering, or timing out, every call;
 * - an evaluation that never ends is stopped at deadline_ms + 1 s, the server answers the
 *   other session at once meanwhile.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { freePort } from '../support/free-port';
import * as os from 'os';
import * as path from 'path';
import { portHolder, request } from '../../engine/host/serve/client';
import { readTcpTable, socketInodes } from '../../engine/host/serve/processes';
import { startClaudeStandIn, type ClaudeStandIn } from '../support/claude-stand-in';

const repo = path.join(__dirname, '..', '..');
const linuxOnly = process.platform === 'linux' ? describe : describe.skip;

const POLICY = `version: 1
settings:
  on_error: closed
  deadline_ms: 1500
  log: { file: .claude/decisions.jsonl }
  bypass: { env: ATEAM_ENFORCEMENT, values: ["off"] }
agents:
  roles: { reviewer: [lynch] }
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write|Bash
    paths: { deny: [".env"] }
    deny: "{{path}} holds secrets."
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Write
    agents: reviewer
    deny: "{{agent}} reviews and writes nothing."
  - id: generated-code-lane
    on: PreToolUse
    tools: Edit
    paths: { allow: ["gen/**/a*a*a*a*a*a*a*a*a*a*a*b/**"] }
    deny: "{{path}} is outside the generated code."
`;

let tmp: string;
let port: number;
let cache: string;
const claudes: ClaudeStandIn[] = [];


/** A project with its own install of hookpolicy: the package's files and the packages it loads, copied. */
function project(name: string): { root: string; bin: string; install: string } {
  const root = path.join(tmp, name);
  const install = path.join(root, 'node_modules', 'hookpolicy');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), POLICY);
  for (const part of ['bin', 'dist', 'policies', 'package.json', 'policy.schema.json']) fs.cpSync(path.join(repo, part), path.join(install, part), { recursive: true });
  for (const dep of ['jsonata', 'mvdan-sh', 'picomatch']) fs.cpSync(path.join(repo, 'node_modules', dep), path.join(root, 'node_modules', dep), { recursive: true });
  return { root, bin: path.join(install, 'bin', 'policy.cjs'), install };
}

function hookEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['CLAUDE_PROJECT_DIR', 'POLICY_CONFIG', 'CLAUDE_PID', 'NODE_OPTIONS', 'ATEAM_ENFORCEMENT'].includes(k)) env[k] = v;
  return { ...env, HOME: path.join(tmp, 'home'), HOOKPOLICY_CACHE_DIR: cache, CLAUDE_PROJECT_DIR: root, ...extra };
}

/** The session's SessionStart (or, with a prompt, UserPromptSubmit) hook, run by its Claude Code. */
async function ensure(claude: ClaudeStandIn, p: { root: string; bin: string }, session: string, prompt?: string, extra: Record<string, string> = {}) {
  const common = { session_id: session, cwd: p.root, transcript_path: path.join(tmp, `${session}.jsonl`) };
  const event = prompt === undefined ? { ...common, hook_event_name: 'SessionStart', source: 'startup' } : { ...common, hook_event_name: 'UserPromptSubmit', prompt };
  return claude.hook([process.execPath, p.bin, 'serve', '--ensure', '--port', String(port), '--idle', '1', '--on-error', 'closed'], JSON.stringify(event), hookEnv(p.root, extra));
}

function claude(): ClaudeStandIn {
  const c = startClaudeStandIn();
  claudes.push(c);
  return c;
}

const write = (session: string, root: string, file: string, agent?: string) => ({
  session_id: session, hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: path.join(root, file), content: 'x' },
  ...(agent ? { agent_id: `a-${agent}`, agent_type: agent } : {}),
});
const bash = (session: string, root: string, command: string) => ({ session_id: session, hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash', tool_input: { command } });

async function decisionOf(c: ClaudeStandIn, event: object): Promise<string | null> {
  const answer = await c.post(port, JSON.stringify(event));
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  if (answer.body === '') return null;
  return (JSON.parse(answer.body) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision ?? null;
}

function logLines(root: string): string[] {
  const file = path.join(root, '.claude', 'decisions.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

async function serverPid(): Promise<number> {
  const token = fs.readFileSync(path.join(cache, 'serve', 'token'), 'utf8').trim();
  const holder = await portHolder(port, token);
  if (holder.kind !== 'ours') throw new Error(`no server of ours on ${port}: ${JSON.stringify(holder)}`);
  return holder.pid;
}

beforeAll(() => {
  if (!fs.existsSync(path.join(repo, 'dist', 'serve-worker.cjs'))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

beforeEach(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-serve-integrity-')));
  cache = path.join(tmp, 'cache');
  port = await freePort();
});

afterEach(async () => {
  for (const c of claudes.splice(0)) await c.end();
  const pid = await serverPid().catch(() => null);
  if (pid !== null) {
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

linuxOnly('the policy server as the confined agent attacks it', () => {
  it('a session is judged by its own install, whose packages its self-protection guards; a rewritten install judges no other project', async () => {
    const a = project('a');
    const b = project('b');
    const ca = claude();
    const cb = claude();
    expect((await ensure(ca, a, 's-a')).exit).toBe(0);
    expect((await ensure(cb, b, 's-b')).exit).toBe(0);
    // B's agent rewriting the shell parser its own install loads: denied, by Write and by Bash.
    expect(await decisionOf(cb, write('s-b', b.root, 'node_modules/mvdan-sh/index.js'))).toBe('deny');
    expect(await decisionOf(cb, bash('s-b', b.root, 'echo "module.exports = {}" > node_modules/mvdan-sh/index.js'))).toBe('deny');
    // Rewritten anyway (by a script the hook cannot read): B's server stopped, B's next prompt starts one from B's install.
    fs.writeFileSync(path.join(b.root, 'node_modules', 'mvdan-sh', 'index.js'), 'throw new Error("rewritten by the agent")\n');
    process.kill(await serverPid(), 'SIGKILL');
    expect((await ensure(cb, b, 's-b', 'go on')).exit).toBe(0);
    // A's sessions are still judged by A's install: its Bash writes are read by A's parser.
    expect((await ensure(ca, a, 's-a', 'go on')).exit).toBe(0);
    expect(await decisionOf(ca, bash('s-a', a.root, 'echo SECRET=1 > .env'))).toBe('deny');
    expect(await decisionOf(ca, bash('s-a', a.root, 'echo ok > notes.txt'))).toBeNull();
  }, 120_000);

  it('the agent\'s curl to the server is refused and recorded nowhere; the server\'s log and a command runner\'s make one chain', async () => {
    const a = project('a');
    const ca = claude();
    expect((await ensure(ca, a, 's-a')).exit).toBe(0);
    expect(await decisionOf(ca, write('s-a', a.root, 'src/x.ts', 'lynch'))).toBe('deny');
    expect(logLines(a.root)).toHaveLength(1);
    // A forged event from another process of the user: 403, and no line in the project's log.
    const forged = await request(port, 'POST', '/policy-hook', JSON.stringify(write('s-a', a.root, 'src/x.ts', 'lynch')), 10_000);
    expect(forged.status).toBe(403);
    expect(logLines(a.root)).toHaveLength(1);
    // The server's appender, kept open, and a command-mode runner between its appends: one chain, intact.
    execFileSync(process.execPath, [a.bin, 'hook'], { input: JSON.stringify(write('s-a', a.root, '.env')), env: hookEnv(a.root), encoding: 'utf8' });
    expect(await decisionOf(ca, write('s-a', a.root, 'src/y.ts', 'lynch'))).toBe('deny');
    expect(logLines(a.root)).toHaveLength(3);
    const verified = execFileSync(process.execPath, [a.bin, 'log', 'verify'], { cwd: a.root, env: hookEnv(a.root), encoding: 'utf8' });
    expect(verified).toContain('intact');
  }, 120_000);

  it('a session registered again by the agent with its lanes switched off keeps the environment it started with', async () => {
    const a = project('a');
    const ca = claude();
    expect((await ensure(ca, a, 's-a')).exit).toBe(0);
    expect(await decisionOf(ca, write('s-a', a.root, 'src/x.ts', 'lynch'))).toBe('deny');
    // The agent runs the ensure hook itself (a child of Claude Code, as its Bash is) with the bypass switch on.
    const again = await ensure(ca, a, 's-a', 'x', { ATEAM_ENFORCEMENT: 'off' });
    expect(again.exit).toBe(0);
    expect(await decisionOf(ca, write('s-a', a.root, 'src/x.ts', 'lynch'))).toBe('deny');
    expect(fs.readFileSync(path.join(cache, 'serve', `port-${port}`, 'server.log'), 'utf8')).toContain('session s-a registered again with another environment: it keeps the one it started with');
  }, 120_000);

  it('a server started with NODE_OPTIONS, or stopped with SIGSTOP, is replaced at the next prompt', async () => {
    const a = project('a');
    const ca = claude();
    // Started by hand as the agent would, with code of its own loaded into it.
    const evil = path.join(tmp, 'evil.cjs');
    fs.writeFileSync(evil, 'globalThis.loadedByTheAgent = true;\n');
    const started = startClaudeStandIn();
    claudes.push(started);
    void started.hook([process.execPath, a.bin, 'serve', '--sessions', '--port', String(port), '--idle', '30'], '', hookEnv(a.root, { NODE_OPTIONS: `--require ${evil}` }));
    for (let i = 0; i < 100 && (await serverPid().catch(() => null)) === null; i++) await new Promise((r) => setTimeout(r, 100));
    const planted = await serverPid();
    const first = await ensure(ca, a, 's-a');
    expect(first.exit).toBe(0);
    expect(first.stderr).toContain(`hookpolicy's server pid ${planted} cannot be trusted: it was started with NODE_OPTIONS=--require`);
    const replaced = await serverPid();
    expect(replaced).not.toBe(planted);
    expect(await decisionOf(ca, write('s-a', a.root, '.env'))).toBe('deny');
    // Stopped: its calls wait, then the next prompt replaces it within seconds, not after Claude Code's timeout.
    process.kill(replaced, 'SIGSTOP');
    const t0 = Date.now();
    const prompt = await ensure(ca, a, 's-a', 'go on');
    expect(prompt.exit).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(prompt.stderr).toContain(`hookpolicy's server pid ${replaced} holds the port and does not answer`);
    expect(await serverPid()).not.toBe(replaced);
    expect(await decisionOf(ca, write('s-a', a.root, '.env'))).toBe('deny');
  }, 120_000);

  it('SIGUSR1, which starts a Node process\'s inspector, opens no debugger in the server', async () => {
    const a = project('a');
    const ca = claude();
    expect((await ensure(ca, a, 's-a')).exit).toBe(0);
    const pid = await serverPid();
    const before = socketInodes(pid);
    process.kill(pid, 'SIGUSR1');
    await new Promise((r) => setTimeout(r, 500));
    // No socket of the server listens anywhere new (the inspector would listen on 127.0.0.1:9229).
    const listening = new Set((readTcpTable() ?? '').split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f[3] === '0A').map((f) => f[9]));
    const opened = [...(socketInodes(pid) ?? [])].filter((inode) => !before?.has(inode) && listening.has(inode));
    expect(opened).toEqual([]);
    expect(await decisionOf(ca, write('s-a', a.root, '.env'))).toBe('deny');
    expect(fs.readFileSync(path.join(cache, 'serve', `port-${port}`, 'server.log'), 'utf8')).toContain('SIGUSR1 received: the inspector stays off');
  }, 120_000);

  it('an event crafted against a team glob is answered within deadline_ms + 1 s, refused; another session is answered meanwhile', async () => {
    const a = project('a');
    const b = project('b');
    const ca = claude();
    const cb = claude();
    expect((await ensure(ca, a, 's-a')).exit).toBe(0);
    expect((await ensure(cb, b, 's-b')).exit).toBe(0);
    // Outside the lane's allow list, spelled so that a backtracking matcher never finishes with it.
    const read = { session_id: 's-a', hook_event_name: 'PreToolUse', cwd: a.root, tool_name: 'Edit', tool_input: { file_path: path.join(a.root, 'gen', `${'a'.repeat(48)}c`, 'x.ts'), old_string: 'a', new_string: 'b' } };
    const t0 = Date.now();
    const slow = ca.post(port, JSON.stringify(read));
    // Meanwhile the other session's deny comes at once.
    await new Promise((r) => setTimeout(r, 200));
    const t1 = Date.now();
    expect(await decisionOf(cb, write('s-b', b.root, '.env'))).toBe('deny');
    expect(Date.now() - t1).toBeLessThan(1000);
    const answer = await slow;
    const took = Date.now() - t0;
    expect(took).toBeLessThan(1500 + 1000 + 1000);
    expect(answer.status).toBe(200);
    const output = JSON.parse(answer.body) as { hookSpecificOutput: { permissionDecision: string } };
    // Refused: by the rule, or (a matcher that backtracks) by on_error: closed once the worker was stopped.
    expect(output.hookSpecificOutput.permissionDecision).toBe('deny');
    // The session goes on with a new worker.
    expect(await decisionOf(ca, write('s-a', a.root, '.env'))).toBe('deny');
  }, 120_000);
});
