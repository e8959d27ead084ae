// What a logged decision costs a long-lived process (the policy server): the decision
// log's append the command-mode runner's way (appendDecisionRecord: open, lock, the file
// beside the log, write, close, per record) against the long-lived appender
// (createDecisionAppender: the log kept open, a cheap check that nobody else wrote), each
// alone and inside recordDecision (the record built and redacted too), side by side.
//
//   node scripts/bench/decision-append.mjs [--appends N] [--rounds R] [--json FILE]
//
// Each condition appends N records (default 2,000) to a log of its own, in R rounds
// (default 8) that alternate the conditions' order, so that the machine's load hits all of
// them alike; every append is timed with process.hrtime. Prints µs per append.
import { writeFileSync, mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { quantile, round } from './stats.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const o = { appends: 2000, rounds: 8, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--appends') o.appends = Number(argv[++i]);
    else if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node scripts/bench/decision-append.mjs [--appends N (default 2000)] [--rounds R (default 8)] [--json FILE]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

/** The log room bundled as the runner bundles it (its own SHA-256, no node:crypto on the path). */
function loadEngine(dir) {
  const outfile = join(dir, 'engine.cjs');
  buildSync({
    stdin: {
      contents: "export { appendDecisionRecord, recordDecision } from './engine/host/decision-log'; export { createDecisionAppender } from './engine/host/log-chain/appender';",
      resolveDir: repo, loader: 'ts',
    },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'error', external: ['pg', '@opentelemetry/*'],
  });
  return require(outfile);
}

const at = { file: '.claude/policies.yaml', line: 1, column: 1 };
const rule = { id: 'no-env-writes', outcome: 'deny', source: at, log: true };
const policy = {
  format: 1,
  sources: [{ file: '.claude/policies.yaml', hash: 'h' }],
  settings: { onError: 'open', bypasses: [], deadlineMs: 5000, log: { file: '.claude/decisions.jsonl', webhook: null, record: ['deny', 'ask', 'block', 'error'] } },
  agents: { identity: [], stripPrefixes: [], main: null, roles: {}, known: [] },
  rules: [rule],
  index: { byEvent: {} },
};
const hit = { id: 'no-env-writes', outcome: 'deny', message: '.env holds secrets: use .env.example.', source: at, paths: ['.env'] };
const decision = {
  event: 'PreToolUse', tool: 'Write', agent: 'murdock', outcome: 'deny', reason: '.env holds secrets: use .env.example.',
  decidedBy: [hit], hits: [hit], contexts: [], warnings: [], trace: [], bypass: null, errors: [], paths: ['.env'],
};
const event = { hook_event_name: 'PreToolUse', session_id: 'b7c2', tool_name: 'Write', tool_input: { file_path: '/p/.env', content: 'x' }, cwd: '/p' };
const record = (i) => ({
  time: '2026-01-15T10:05:30.000Z', session_id: `s-${i}`, event: 'PreToolUse', tool: 'Write', agent: 'murdock', outcome: 'deny',
  rules: ['no-env-writes'], reason: '.env holds secrets: use .env.example.', paths: ['.env'], policy: ['.claude/policies.yaml'], duration_ms: 3.1,
});

function project(base, name) {
  const dir = join(base, name);
  require('node:fs').mkdirSync(join(dir, '.claude'), { recursive: true });
  return dir;
}

const main = async () => {
  const o = parseArgs(process.argv.slice(2));
  const base = realpathSync(mkdtempSync(join(os.tmpdir(), 'hookpolicy-bench-append-')));
  try {
    const engine = loadEngine(base);
    const dirs = { old: project(base, 'old'), kept: project(base, 'kept'), recordOld: project(base, 'record-old'), recordKept: project(base, 'record-kept') };
    const appenders = {
      kept: engine.createDecisionAppender('.claude/decisions.jsonl', dirs.kept),
      recordKept: engine.createDecisionAppender('.claude/decisions.jsonl', dirs.recordKept),
    };
    const now = new Date('2026-01-15T10:05:30.000Z');
    const conditions = {
      old: (i) => engine.appendDecisionRecord('.claude/decisions.jsonl', dirs.old, record(i)),
      kept: (i) => appenders.kept.append(record(i)),
      recordOld: () => engine.recordDecision({ decision, event, policy, projectRoot: dirs.recordOld, now, env: {} }),
      recordKept: () => engine.recordDecision({ decision, event, policy, projectRoot: dirs.recordKept, now, env: {}, appender: appenders.recordKept }),
    };
    const names = Object.keys(conditions);
    const times = Object.fromEntries(names.map((n) => [n, []]));
    const perRound = Math.ceil(o.appends / o.rounds);
    // A warm-up of each: the first append opens the files, loads the date cache...
    for (const n of names) for (let i = 0; i < 20; i++) conditions[n](i);
    for (let r = 0; r < o.rounds; r++) {
      const order = names.map((_, k) => names[(k + r) % names.length]);
      for (const n of order) {
        for (let i = 0; i < perRound && times[n].length < o.appends; i++) {
          const t0 = process.hrtime.bigint();
          const out = conditions[n](i);
          const t1 = process.hrtime.bigint();
          if (out && out.written === false) throw new Error(`${n}: an append was queued (another process holds the lock)`);
          times[n].push(Number(t1 - t0) / 1000);
        }
      }
    }
    for (const a of Object.values(appenders)) await a.close();
    const rows = names.map((n) => {
      const sorted = [...times[n]].sort((a, b) => a - b);
      const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
      return { condition: n, appends: sorted.length, medianUs: round(quantile(sorted, 0.5), 1), p90Us: round(quantile(sorted, 0.9), 1), p99Us: round(quantile(sorted, 0.99), 1), meanUs: round(mean, 1) };
    });
    const label = { old: 'append, opened per record (command mode)', kept: 'append, long-lived appender', recordOld: 'recordDecision, opened per record', recordKept: 'recordDecision, long-lived appender' };
    process.stdout.write(`${o.appends} appends each, ${o.rounds} rounds alternating, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}\n`);
    process.stdout.write(`${'condition'.padEnd(44)}${'median µs'.padStart(11)}${'p90 µs'.padStart(9)}${'p99 µs'.padStart(9)}${'mean µs'.padStart(9)}\n`);
    for (const r of rows) process.stdout.write(`${label[r.condition].padEnd(44)}${String(r.medianUs).padStart(11)}${String(r.p90Us).padStart(9)}${String(r.p99Us).padStart(9)}${String(r.meanUs).padStart(9)}\n`);
    if (o.json) writeFileSync(o.json, `${JSON.stringify({ node: process.version, load: os.loadavg()[0], rows }, null, 2)}\n`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};

await main();
