/**
 * A stand-in for a Claude Code process, for the policy server's tests: a process of its
 * own that runs hook commands as its children (with $CLAUDE_PID naming it, as Claude Code's
 * hooks see it) and posts http hook events from its own sockets. The server takes an event
 * only from the Claude Code process of the session it names, so a test that posts from
 * the jest process itself is refused as any other process of the user would be.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SOURCE = `
const http = require('http');
const { spawn } = require('child_process');
const agent = new http.Agent({ keepAlive: true });
let hooks = 0;
let terminated = false;
// A hook may end this session (SIGTERM, as Claude Code would be): its answer is sent first, then the signal is taken.
process.on('SIGTERM', () => {
  terminated = true;
  if (hooks === 0) die();
});
function die() {
  process.removeAllListeners('SIGTERM');
  process.kill(process.pid, 'SIGTERM');
}
process.on('message', (m) => {
  if (m.type === 'hook') {
    hooks++;
    const child = spawn(m.argv[0], m.argv.slice(1), { env: { ...m.env, CLAUDE_PID: String(process.pid) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => process.send({ id: m.id, exit: code === null ? -1 : code, stdout, stderr }, () => {
      hooks--;
      if (terminated && hooks === 0) die();
    }));
    child.stdin.end(m.stdin);
    return;
  }
  if (m.type === 'post') {
    const req = http.request({ host: '127.0.0.1', port: m.port, path: m.path, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => process.send({ id: m.id, status: res.statusCode, body }));
    });
    req.on('error', (e) => process.send({ id: m.id, status: 0, body: String(e.code || e.message) }));
    req.end(m.body);
  }
});
`;

export interface HookRun {
  exit: number;
  stdout: string;
  stderr: string;
}

export interface ClaudeStandIn {
  pid: number;
  process: ChildProcess;
  /** Runs a hook command as this process's child, `stdin` as its input. */
  hook(argv: string[], stdin: string, env: Record<string, string>): Promise<HookRun>;
  /** POSTs `body` to 127.0.0.1:port (keep-alive, as Claude Code's http hooks): the status and body (status 0: a socket error, in body). */
  post(port: number, body: string, where?: string): Promise<{ status: number; body: string }>;
  /** Ends it (SIGKILL unless said), at once when it has ended. */
  end(signal?: NodeJS.Signals): Promise<void>;
}

let script: string | undefined;

/**
 * @example const claude = startClaudeStandIn(); await claude.hook([process.execPath, bin, 'serve', '--ensure', ...], event, env);
 */
export function startClaudeStandIn(): ClaudeStandIn {
  script ??= (() => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-claude-stand-in-')), 'claude.cjs');
    fs.writeFileSync(file, SOURCE);
    return file;
  })();
  const child = fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let next = 1;
  const waiting = new Map<number, (reply: unknown) => void>();
  child.on('message', (m: { id: number }) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const ask = <T>(message: object): Promise<T> => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, resolve as (reply: unknown) => void);
    child.send({ ...message, id }, (e) => {
      if (e) reject(e);
    });
  });
  return {
    pid: child.pid!,
    process: child,
    hook: (argv, stdin, env) => ask<HookRun>({ type: 'hook', argv, stdin, env }),
    post: (port, body, where = '/policy-hook') => ask({ type: 'post', port, body, path: where }),
    end: (signal = 'SIGKILL') => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    }),
  };
}
