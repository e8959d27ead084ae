// The policy server as the default install runs it: `policy serve --ensure` (the SessionStart
// hook) starts it and registers 8 sessions, this process standing in for their Claude Code
// ($CLAUDE_PID), since the server takes an event only from the process that registered its
// session. Figures:
// - latency with the 8 sessions at work at once, each on its own keep-alive connection (as
//   Claude Code keeps one per session), each making its next call a while after the last
//   answer (think time drawn around 20 ms: a busy agent's tool calls come tens of ms apart
//   at the very least);
// - the same with no pause at all (every session calling as fast as it is answered: what the
//   server does when saturated, decisions per second);
// - the server's CPU time per event (its /proc/<pid>/stat, threads included) for a logged
//   deny, for the same deny in a project whose log records no deny (the difference is what
//   the decision log costs), and for an event no rule matches, each over a run of one kind.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { join } from 'node:path';
import { events } from './fixtures.mjs';
import { summarize } from './stats.mjs';

const SESSIONS = 8;

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function post(agent, port, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/policy-hook', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU time (user + system, ms) of a process and its threads so far, from /proc. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** The project: the shipped packs with a decision log (a deny is a logged deny), or with one that records no deny. */
function project(tmp, name, record) {
  const dir = join(tmp, name);
  mkdirSync(join(dir, '.claude'), { recursive: true });
  mkdirSync(join(dir, 'mission'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'policies.yaml'), `version: 1\ninclude: [ai-team, dia, security-guard]\nsettings:\n  log: { file: .claude/decisions.jsonl, record: [${record}] }\n`);
  return dir;
}

/** Latency with every session posting at once, and the server's CPU per event of two kinds. */
export async function sessionServerFigures(repo, tmp, env, requests = 2000) {
  if (process.platform !== 'linux') return { skipped: 'the server takes events only from a registered Claude Code, which this bench can stand in for only where /proc tells it' };
  const dir = project(tmp, 'sessions', 'deny, ask, block');
  const quiet = project(tmp, 'sessions-unlogged', 'ask');
  const port = await freePort();
  const bin = join(repo, 'bin', 'policy.cjs');
  const register = (id, root) => {
    const r = spawnSync(process.execPath, [bin, 'serve', '--ensure', '--port', String(port), '--idle', '2'], { input: JSON.stringify({ session_id: id, cwd: root, hook_event_name: 'SessionStart', source: 'startup', transcript_path: join(root, 't.jsonl') }), env: { ...env, CLAUDE_PROJECT_DIR: root, CLAUDE_PID: String(process.pid) }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`policy serve --ensure exited ${r.status}: ${r.stderr}`);
  };
  const ids = Array.from({ length: SESSIONS }, (_, i) => `bench-session-${i + 1}`);
  for (const id of ids) register(id, dir);
  register('bench-unlogged', quiet);
  const health = await new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port, path: '/health' }, (res) => {
    let t = '';
    res.on('data', (d) => { t += d; });
    res.on('end', () => resolve(JSON.parse(t)));
  }).on('error', reject));
  const pid = health.pid;
  const kinds = events(dir, 'rm -rf /');
  const mix = ['none', 'deny', 'write', 'redirect'].map((k) => kinds[k]);
  const bodies = ids.map((id) => mix.map((e) => JSON.stringify({ ...e, session_id: id })));
  const agents = ids.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    for (let s = 0; s < SESSIONS; s++) for (let i = 0; i < 50; i++) await post(agents[s], port, bodies[s][i % mix.length]);
    // Every session at once, each waiting for its answer before its next call (as Claude Code does).
    const atOnce = async (thinkMs) => {
      const latencies = [];
      const each = Math.ceil(requests / SESSIONS);
      const start = process.hrtime.bigint();
      await Promise.all(ids.map(async (_, s) => {
        for (let i = 0; i < each; i++) {
          if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs * (0.5 + Math.random())));
          const t = process.hrtime.bigint();
          const r = await post(agents[s], port, bodies[s][i % mix.length]);
          if (r.status !== 200) throw new Error(`the server answered ${r.status}: ${r.body}`);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }));
      return { latency: summarize(latencies), perSecond: latencies.length / (Number(process.hrtime.bigint() - start) / 1e9) };
    };
    const working = await atOnce(20);
    const saturated = await atOnce(0);
    // CPU per event of one kind, over a sequential run of it.
    const perEvent = async (kind, session = ids[0], root = dir) => {
      const body = JSON.stringify({ ...events(root, 'rm -rf /')[kind], session_id: session });
      for (let i = 0; i < 100; i++) await post(agents[0], port, body);
      const before = cpuMs(pid);
      const start = process.hrtime.bigint();
      for (let i = 0; i < requests; i++) await post(agents[0], port, body);
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      return { cpuMs: (cpuMs(pid) - before) / requests, wallMs: wall / requests };
    };
    const deny = await perEvent('deny');
    const unloggedDeny = await perEvent('deny', 'bench-unlogged', quiet);
    const none = await perEvent('none');
    const logged = readFileSync(join(dir, '.claude', 'decisions.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"deny"')).length;
    return { sessions: SESSIONS, latency: working.latency, saturated, loggedDeny: deny, unloggedDeny, logCostMs: deny.cpuMs - unloggedDeny.cpuMs, noMatch: none, loggedDenies: logged };
  } finally {
    for (const a of agents) a.destroy();
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone.
    }
  }
}
