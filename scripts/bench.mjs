// `npm run bench`: what a hook costs on this machine, measured side by side in one run.
//
//   node scripts/bench.mjs [--runs N] [--json FILE] [--quick] [--skip SECTION,...]
//
// Sections: process (command mode vs the `node -e ''` floor, interleaved run by run; the
// memory store's recording and recall events among them),
// memory (peak RSS), inprocess (events/s of the compiled engine), test (`policy test` on
// 10,000 cases), daemon (`policy serve` over loopback). Figures go to stdout as tables
// and to bench-results/latest.json (or --json FILE). See docs/performance.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerProblem, conditions } from './bench/conditions.mjs';
import { daemonFigures } from './bench/daemon.mjs';
import { sessionServerFigures } from './bench/sessions.mjs';
import { caBundle, makeColdProject, makeEditProject, makeMemoryProject, makeProjects, makeSuites } from './bench/fixtures.mjs';
import { inProcessRate } from './bench/inprocess.mjs';
import { issueGoals, otherTables, processTable, targetTable, targets } from './bench/report.mjs';
import { peakRssMiB, rssMethod, timedRun } from './bench/spawn.mjs';
import { summarize } from './bench/stats.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const o = { runs: 20, json: join(repo, 'bench-results', 'latest.json'), skip: new Set(), quick: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--quick') o.quick = true;
    else if (a === '--skip') for (const s of argv[++i].split(',')) o.skip.add(s.trim());
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node scripts/bench.mjs [--runs N (default 20)] [--json FILE] [--quick] [--skip process,memory,inprocess,test,daemon,sessions]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (o.quick) o.runs = Math.min(o.runs, 8);
  if (!(o.runs >= 3)) throw new Error('--runs must be at least 3');
  return o;
}

/** The environment of every child: this one without the variables that would steer the runner. */
function baseEnv(cacheDir) {
  const env = { ...process.env };
  for (const k of ['NODE_EXTRA_CA_CERTS', 'CLAUDE_PROJECT_DIR', 'POLICY_CONFIG', 'NODE_OPTIONS', 'HOOKPOLICY_CODE_CACHE', 'HOOKPOLICY_DEBUG_CODE_CACHE']) delete env[k];
  return { ...env, HOOKPOLICY_CACHE_DIR: cacheDir };
}

async function measureProcesses(list, runs, notes) {
  const samples = new Map(list.map((c) => [c.id, []]));
  const warmup = 3;
  for (let round = 0; round < warmup + runs; round++) {
    // Interleaved (ABAB...), starting one further each round, so that machine noise hits every condition alike.
    for (let j = 0; j < list.length; j++) {
      const c = list[(round + j) % list.length];
      const env = c.prepare ? { ...c.env, ...c.prepare() } : c.env;
      const run = await timedRun(c.command, c.stdin, env);
      if (round === warmup && c.kind) {
        const problem = answerProblem(c.kind, run);
        if (problem) notes.push(`${c.label}: ${problem}`);
      }
      if (round >= warmup) samples.get(c.id).push(run.ms);
    }
    process.stderr.write(`\rprocess runs: ${round + 1}/${warmup + runs}`);
  }
  process.stderr.write('\n');
  return list.map((c) => ({ id: c.id, label: c.label, stats: summarize(samples.get(c.id)) }));
}

function measureMemory(list, runs) {
  const method = rssMethod();
  if (!method) return { method: null, rows: null };
  const ids = ['floor', 'packs/none', 'packs/deny', 'packs/context', 'rules1000/none', 'rules1000/deny', 'packs/redirect', 'packs/heredoc', 'memory/record', 'memory/search'];
  const chosen = ids.map((id) => list.find((c) => c.id === id)).filter(Boolean);
  const samples = new Map(chosen.map((c) => [c.id, []]));
  for (let r = 0; r < runs; r++) {
    for (const c of chosen) {
      const mib = peakRssMiB(method, c.command, c.stdin, c.env);
      if (mib !== null) samples.get(c.id).push(mib);
    }
  }
  const rows = chosen.map((c) => ({ id: c.id, label: c.label, mib: summarize(samples.get(c.id)).median }));
  return { method, rows };
}

function measurePolicyTest(tmp, env) {
  const suites = makeSuites(repo, tmp, 10000);
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(repo, 'bin', 'policy.cjs'), 'test', suites.dir, '--format', 'tap'], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const failedCases = (r.stdout.match(/^not ok /gm) ?? []).length;
  return { cases: suites.cases, seconds, casesPerSecond: suites.cases / seconds, exitCode: r.status, failedCases };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const tmp = mkdtempSync(join(os.tmpdir(), 'hookpolicy-bench-'));
  const notes = [];
  try {
    const env = baseEnv(join(tmp, 'cache'));
    const ca = caBundle(tmp);
    const projects = makeProjects(repo, tmp, env);
    for (const p of projects) if (p.note) notes.push(`${p.name}: ${p.note}`);
    const results = {
      date: new Date().toISOString(),
      node: process.version,
      v8: process.versions.v8,
      platform: `${process.platform}-${process.arch}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      loadAverage: os.loadavg(),
      runs: o.runs,
      caBundle: ca,
      installedCommands: Object.fromEntries(projects.map((p) => [p.key, p.command])),
      notes,
    };
    const memoryProject = makeMemoryProject(repo, tmp, env);
    if (memoryProject.note) notes.push(`${memoryProject.name}: ${memoryProject.note}`);
    results.installedCommands[memoryProject.key] = memoryProject.command;
    const edited = makeEditProject(repo, tmp, env);
    if (edited.note) notes.push(`${edited.name}: ${edited.note}`);
    const cold = makeColdProject(repo, tmp, env);
    if (cold.note) notes.push(`${cold.name}: ${cold.note}`);
    const list = conditions(repo, projects, env, ca, tmp, memoryProject, edited, cold);
    if (!o.skip.has('process')) {
      results.process = await measureProcesses(list, o.runs, notes);
      const floor = results.process.find((r) => r.id === 'floor').stats;
      results.noisy = floor.spread > 0.5;
      results.noiseRule = "noisy when the floor's (max - min) / median exceeds 0.5";
    }
    if (!o.skip.has('memory')) {
      const memory = measureMemory(list, o.quick ? 3 : 7);
      results.memoryMethod = memory.method;
      if (memory.rows) results.memory = memory.rows;
    }
    if (!o.skip.has('inprocess')) {
      results.inProcess = [];
      for (const p of projects) results.inProcess.push({ id: p.key, label: p.name, ...(await inProcessRate(repo, p, o.quick ? 0.6 : 1.5)) });
    }
    if (!o.skip.has('test')) results.policyTest = measurePolicyTest(tmp, env);
    if (!o.skip.has('daemon')) {
      results.daemon = [];
      // The memory store too: its recalls are event kinds of their own (issue 15: every kind <= 1 ms).
      for (const p of [...projects, memoryProject]) results.daemon.push({ id: p.key, label: p.name, ...(await daemonFigures(repo, p, env, o.quick ? 500 : 2000)) });
    }
    if (!o.skip.has('sessions')) results.sessions = await sessionServerFigures(repo, tmp, env, o.quick ? 800 : 2000);
    if (results.process) results.targets = targets(results);
    results.issueGoals = issueGoals(results);

    const out = [`hookpolicy bench: node ${results.node}, ${results.cpus} CPUs (${results.cpuModel}), load ${results.loadAverage.map((x) => x.toFixed(2)).join(' ')}, ${o.runs} runs per process condition${results.noisy ? ' -- NOISY: the floor varied by more than 50%, read the ratios with care' : ''}`, ''];
    for (const p of [...projects, memoryProject]) out.push(`installed command (${p.name}): ${p.command}`);
    out.push('');
    if (results.process) out.push(processTable(results), '');
    const rest = otherTables(results);
    if (rest) out.push(rest, '');
    if (results.memoryMethod) out.push(`peak RSS measured with ${results.memoryMethod}`, '');
    if (results.policyTest && (results.policyTest.exitCode !== 0 || results.policyTest.failedCases > 0)) notes.push(`policy test exited ${results.policyTest.exitCode} with ${results.policyTest.failedCases} failed cases`);
    if (results.targets) out.push(targetTable(results.targets), '');
    if (results.issueGoals.length > 0) out.push('goals (issue 15: a hook nobody notices; issue 29: the session server; the real client: npm run bench:client)', targetTable(results.issueGoals), '');
    for (const n of new Set(notes)) out.push(`note: ${n.length > 400 ? `${n.slice(0, 400)}...` : n}`);
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync(dirname(o.json), { recursive: true });
    writeFileSync(o.json, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`figures written to ${o.json}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`bench: ${e.stack ?? e}\n`);
  process.exitCode = 1;
});
