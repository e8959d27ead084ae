// `npm run bench:client`: what each way of registering a hook adds to a tool call in the
// real Claude Code client, measured side by side in one run.
//
//   node scripts/bench/client.mjs [--calls N] [--rounds R] [--only none,true,...] [--json FILE]
//
// The pinned native `claude` (the Agent SDK dev dependency) runs `claude -p` against the
// real-client suite's scripted Messages API on 127.0.0.1, inside a network namespace with
// only loopback where `unshare -n` works. Each session is a script of N Write calls, one per
// model turn, so the calls run one after the other. The scripted model notes when it
// answered a turn and when the next request (carrying the tool result) arrived: that gap is
// what the client spent on the call (hooks, the tool, its own work). Conditions run
// interleaved, round by round, the starting one rotating, after one warm-up round; a
// condition's added time per call is the median over rounds of (its session's median gap -
// the no-hook session's median gap of the same round), so that the machine's load, which
// changes from minute to minute, hits both sides of each difference alike.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile, round } from './stats.mjs';
import { clientConditions } from './client-conditions.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const NETNS_MARK = 'HOOKPOLICY_BENCH_CLIENT_NETNS';

function parseArgs(argv) {
  const o = { calls: 20, rounds: 6, only: null, json: join(repo, 'bench-results', 'client.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--calls') o.calls = Number(argv[++i]);
    else if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--only') o.only = new Set(argv[++i].split(',').map((s) => s.trim()));
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node scripts/bench/client.mjs [--calls N (default 20)] [--rounds R (default 6)] [--only none,true,node,http-floor,command,http,mod] [--json FILE]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!(o.calls >= 3) || !(o.rounds >= 1)) throw new Error('--calls must be at least 3 and --rounds at least 1');
  return o;
}

/** The pinned binary, as the real-client suite finds it, or null. */
function claudeBinary() {
  for (const pkg of [`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`, `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}-musl`]) {
    try {
      const file = join(dirname(require.resolve(`${pkg}/package.json`)), 'claude');
      const run = spawnSync(file, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() } });
      if (run.status === 0) return { file, version: /(\d+\.\d+\.\d+)/.exec(run.stdout)?.[1] ?? '?' };
    } catch {
      // Not installed for this platform.
    }
  }
  return null;
}

/** Re-runs this script inside a loopback-only network namespace when one can be made; returns false when it did. */
function enterNamespace() {
  if (process.env[NETNS_MARK] === '1') {
    execFileSync('ip', ['link', 'set', 'lo', 'up']);
    return true;
  }
  if (process.platform !== 'linux') return true;
  const prefix = process.getuid?.() === 0 ? ['unshare', '-n'] : ['unshare', '-r', '-n'];
  const probe = spawnSync(prefix[0], [...prefix.slice(1), 'true']);
  if (probe.status !== 0) {
    process.stderr.write(`note: ${prefix.join(' ')} does not work here; sessions run on the machine's own loopback\n`);
    return true;
  }
  const run = spawnSync(prefix[0], [...prefix.slice(1), process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, [NETNS_MARK]: '1' } });
  process.exitCode = run.status ?? 1;
  return false;
}

/** The real-client suite's session runner, bundled once (esbuild is a dev dependency). */
function sessionRunner(work) {
  const out = join(work, 'run-session.cjs');
  require('esbuild').buildSync({ entryPoints: [join(repo, 'test', 'real-client', 'run-session.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'error' });
  return require(out);
}

/** The gaps (ms) between answering a main-script turn and the request that brings its tool result. */
function gaps(requests) {
  const main = requests.filter((r) => r.script === 'main' && r.receivedAt !== undefined).sort((a, b) => a.receivedAt - b.receivedAt);
  const byTurn = new Map();
  for (const r of main) if (!byTurn.has(r.turn)) byTurn.set(r.turn, r);
  const out = [];
  for (const [turn, r] of byTurn) {
    const previous = byTurn.get(turn - 1);
    if (previous?.answeredAt !== undefined) out.push(r.receivedAt - previous.answeredAt);
  }
  return out;
}

function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c])))].join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const binary = claudeBinary();
  if (!binary) {
    process.stdout.write('bench:client SKIPPED: no Claude Code binary runs here (the Agent SDK dev dependency ships it)\n');
    return;
  }
  if (!enterNamespace()) return;
  const work = mkdtempSync(join(os.tmpdir(), 'hp-bench-client-'));
  const cleanups = [];
  try {
    const { runSession, clientEnv } = sessionRunner(work);
    const all = clientConditions({ repo, work, calls: options.calls });
    const list = all.filter((c) => !options.only || options.only.has(c.id));
    if (!list.some((c) => c.id === 'none')) list.unshift(all.find((c) => c.id === 'none'));
    for (const c of list) cleanups.push(...(c.setup?.() ?? []));
    const samples = new Map(list.map((c) => [c.id, []]));
    const perRound = new Map(list.map((c) => [c.id, []]));
    const failures = new Map();
    for (let roundNo = 0; roundNo <= options.rounds; roundNo++) {
      for (let j = 0; j < list.length; j++) {
        const c = list[(roundNo + j) % list.length];
        const session = await runSession({
          binary: binary.file,
          projectDir: c.projectDir,
          homeDir: c.homeDir,
          prompt: 'Write the files.',
          scenario: c.scenario,
          args: ['--permission-mode', 'bypassPermissions', ...(c.args ?? [])],
          env: clientEnv(c.homeDir),
          timeoutMs: 120_000,
          loopbackUp: false,
        });
        const problem = c.check(session);
        if (problem) failures.set(c.id, [...(failures.get(c.id) ?? []), problem]);
        if (roundNo > 0) {
          // A session that failed counts in no round (its difference would compare unlike things).
          const g = problem ? [] : gaps(session.requests);
          samples.get(c.id).push(...g);
          perRound.get(c.id).push(g.length > 0 ? quantile(g, 0.5) : NaN);
        }
      }
      process.stderr.write(roundNo === 0 ? 'warm-up round done\n' : `round ${roundNo}/${options.rounds} done\n`);
    }
    const base = perRound.get('none');
    const rows = list.map((c) => {
      const s = samples.get(c.id);
      const added = perRound.get(c.id).map((m, i) => m - base[i]).filter(Number.isFinite);
      const ratios = perRound.get(c.id).map((m, i) => m / base[i]).filter(Number.isFinite);
      return {
        condition: c.label,
        calls: s.length,
        rounds: added.length,
        'median ms': round(quantile(s, 0.5), 1),
        'p90 ms': round(quantile(s, 0.9), 1),
        'added ms': c.id === 'none' ? '-' : round(quantile(added, 0.5), 1),
        'added min..max': c.id === 'none' ? '-' : `${round(Math.min(...added), 1)}..${round(Math.max(...added), 1)}`,
        'x no hook': c.id === 'none' ? 1 : round(quantile(ratios, 0.5), 2),
      };
    });
    const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
    process.stdout.write(`hookpolicy bench:client: Claude Code ${binary.version}, node ${process.version}, ${os.cpus().length} CPUs, load ${load}, ${options.calls} Write calls per session, ${options.rounds} rounds (+1 warm-up), ${process.env[NETNS_MARK] === '1' ? 'loopback-only network namespace' : 'machine loopback'}\n\n`);
    process.stdout.write(`time per tool call in the client (model answered -> next request with the tool result); added: median over rounds of the paired difference to no hook\n${table(rows, Object.keys(rows[0]))}\n`);
    const notes = [...failures].map(([id, problems]) => `${id}: ${problems.length} of ${options.rounds + 1} sessions failed and count in no round; the first: ${problems[0]}`);
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    mkdirSync(dirname(options.json), { recursive: true });
    writeFileSync(options.json, JSON.stringify({ client: binary.version, node: process.version, cpus: os.cpus().length, load: os.loadavg(), calls: options.calls, rounds: options.rounds, rows, notes, perRound: Object.fromEntries(perRound), samples: Object.fromEntries(samples) }, null, 2));
    process.stdout.write(`\nfigures written to ${options.json}\n`);
  } finally {
    for (const stop of cleanups.reverse()) {
      try {
        stop();
      } catch {
        // Best effort.
      }
    }
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
