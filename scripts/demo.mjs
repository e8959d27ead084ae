#!/usr/bin/env node
/**
 * `npm run demo`: builds the runner, then runs every shipped example event
 * (fixtures/events/<pack>/*.json) through its shipped pack, exactly as Claude Code would:
 * `node bin/policy.cjs hook` with the event on stdin, in a throwaway project that holds the
 * files the rules look at. For each event it prints the event, the decision, the exact
 * output and why (rule ids and reasons, read back from the decision log).
 *
 *   node scripts/demo.mjs [--no-build] [pack ...]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'policy.cjs');
const EVENTS = path.join(ROOT, 'fixtures', 'events');
/** The fictional project folder the fixture events were recorded in. */
const FIXTURE_ROOT = '/home/dev/shop';
const LOG = '.claude/policy-decisions.jsonl';
const HOUR = 3600 * 1000;

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const only = args.filter((a) => !a.startsWith('--'));

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = paint('1');
const dim = paint('2');
const red = paint('31');
const yellow = paint('33');
const green = paint('32');
const cyan = paint('36');

/** Files each pack's demo project needs, so its rules have something to check. */
const PROJECTS = {
  'ai-team': () => ({}),
  dia: (now) => ({
    '.agent/teams/session-5f3a9c1e/global-context.md': { text: '# Global context\nversion: GC-v5\n', mtime: now - HOUR },
    '.agent/teams/session-0b7d2e44/global-context.md': { text: '# Global context\nversion: GC-v3\n', mtime: now - 5 * HOUR },
    '.agent/teams/session-5f3a9c1e/phase-2/researcher-1/L1-index.yaml': { text: `findings:\n${'  - cart totals use floats\n'.repeat(3)}` },
    '.agent/teams/session-5f3a9c1e/phase-2/researcher-1/L2-summary.md': { text: `# L2 summary\n\n${'Totals are computed in floating point and drift by a cent. '.repeat(3)}\n` },
    '.agent/teams/session-5f3a9c1e/implementer-1/L1-index.yaml': { text: `changes:\n${'  - src/cart.ts uses integer cents\n'.repeat(2)}` },
    '.agent/teams/session-5f3a9c1e/implementer-1/L2-summary.md': { text: '# L2\nTODO\n' },
  }),
  'security-guard': () => ({
    'package.json': { text: `${JSON.stringify({ name: 'shop', version: '1.4.2', private: true }, null, 2)}\n` },
  }),
};

/** Extra runs that show a switch at work: [pack, fixture, env]. */
const EXTRA_RUNS = [['ai-team', 'lynch-write-code', { ATEAM_ENFORCEMENT: 'off' }]];

function main() {
  if (build) {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) {
      console.error('demo: the build failed; fix it and run `npm run demo` again.');
      process.exitCode = 1;
      return;
    }
  }
  const packs = fs.readdirSync(EVENTS).filter((p) => fs.statSync(path.join(EVENTS, p)).isDirectory()).sort()
    .filter((p) => only.length === 0 || only.includes(p));
  const tally = {};
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-demo-cache-'));
  console.log(bold('hookpolicy demo') + dim(' — shipped example events through the shipped packs, via `node bin/policy.cjs hook`'));
  for (const pack of packs) {
    const project = setUpProject(pack);
    try {
      console.log(`\n${bold(cyan(`■ ${pack}`))}  ${dim(`policies/${pack}.yaml, project ${project}`)}`);
      const fixtures = fs.readdirSync(path.join(EVENTS, pack)).filter((f) => f.endsWith('.json')).sort();
      const runs = fixtures.map((f) => [f.replace(/\.json$/, ''), {}]);
      for (const [p, fixture, env] of EXTRA_RUNS) if (p === pack) runs.push([fixture, env]);
      for (const [fixture, env] of runs) {
        const shown = showRun(pack, fixture, env, project, cacheDir);
        tally[shown] = (tally[shown] ?? 0) + 1;
      }
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  }
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const total = Object.values(tally).reduce((a, b) => a + b, 0);
  const parts = Object.entries(tally).map(([k, v]) => `${v} ${k}`).join(', ');
  console.log(`\n${bold(`${total} events:`)} ${parts}.`);
  console.log(dim('Rules and messages: docs/packs.md. Try one yourself: echo \'{...}\' | npx policy hook'));
}

function setUpProject(pack) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `hookpolicy-demo-${pack}-`)));
  const now = Date.now();
  const files = {
    '.claude/policies.yaml': {
      text: [
        'version: 1',
        `include: [${pack}]`,
        '# The demo records every decision, "none" included, to explain each answer.',
        'settings:',
        `  log: { file: ${LOG}, record: [deny, ask, block, allow, warn, context, bypass, error, none] }`,
        '',
      ].join('\n'),
    },
    ...(PROJECTS[pack] ?? (() => ({})))(now),
  };
  for (const [relative, { text, mtime }] of Object.entries(files)) {
    const target = path.join(dir, ...relative.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    if (mtime !== undefined) fs.utimesSync(target, mtime / 1000, mtime / 1000);
  }
  return dir;
}

/** Runs one fixture and prints it; returns the decision's label for the tally. */
function showRun(pack, fixture, extraEnv, project, cacheDir) {
  const raw = fs.readFileSync(path.join(EVENTS, pack, `${fixture}.json`), 'utf8');
  const input = raw.split(FIXTURE_ROOT).join(project);
  const event = JSON.parse(input);
  const logFile = path.join(project, LOG);
  const before = readLog(logFile).length;
  const env = { ...process.env, CLAUDE_PROJECT_DIR: project, HOOKPOLICY_CACHE_DIR: cacheDir, ...extraEnv };
  if (!('ATEAM_ENFORCEMENT' in extraEnv)) delete env.ATEAM_ENFORCEMENT;
  const child = spawnSync(process.execPath, [BIN, 'hook'], { cwd: project, env, input, encoding: 'utf8' });
  const records = readLog(logFile).slice(before);
  const record = records[records.length - 1] ?? null;
  const stdout = (child.stdout ?? '').trim();
  const stderr = (child.stderr ?? '').trim();
  const label = decisionLabel(record, stdout, child.status);

  const envText = Object.entries(extraEnv).map(([k, v]) => `${k}=${v} `).join('');
  console.log(`\n  ${bold(`${fixture}.json`)}${envText ? `  ${yellow(`(with ${envText.trim()})`)}` : ''}`);
  line('event', describeEvent(event, project, record));
  line('decision', paintLabel(label));
  line('output', `exit ${child.status}${stdout ? '' : ', no stdout'}${stderr ? '' : ', no stderr'}`);
  if (stdout) line('stdout', stdout);
  if (stderr) line('stderr', stderr.split('\n').join('\n' + ' '.repeat(14)));
  for (const [i, why] of explain(record).entries()) line(i === 0 ? 'why' : '', why);
  return label;
}

function line(label, text) {
  console.log(`    ${dim(label.padEnd(9))} ${text}`);
}

function readLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

function decisionLabel(record, stdout, status) {
  if (status === 2) return 'block';
  const outcome = record?.outcome;
  if (outcome && outcome !== 'none') return outcome;
  if (record?.contexts?.length) return 'context';
  if (record?.bypass) return 'bypassed';
  if (stdout.includes('"permissionDecision":"deny"')) return 'deny';
  if (stdout.includes('additionalContext')) return 'context';
  return 'no opinion';
}

function paintLabel(label) {
  const text = label.toUpperCase();
  if (label === 'deny' || label === 'block') return bold(red(text));
  if (label === 'ask') return bold(yellow(text));
  if (label === 'context' || label === 'allow') return bold(green(text));
  return text;
}

/** "PreToolUse · lynch · Write lib/env.ts" */
function describeEvent(event, project, record) {
  const parts = [event.hook_event_name];
  const raw = event.agent_type || event.teammate_name;
  const resolved = record?.agent;
  if (resolved && raw && resolved !== raw) parts.push(`agent ${resolved} (${event.agent_type ? 'agent_type' : 'teammate_name'} "${raw}")`);
  else if (resolved && raw) parts.push(`agent ${resolved}${event.agent_type ? '' : ' (teammate_name)'}`);
  else if (resolved) parts.push(`agent ${resolved} (main session)`);
  else if (raw) parts.push(`agent ${raw}`);
  else if (event.tool_name) parts.push('main session');
  if (event.tool_name) {
    const input = event.tool_input ?? {};
    const target = input.file_path ?? input.notebook_path ?? input.path;
    const shown = typeof target === 'string' ? relative(target, project)
      : typeof input.command === 'string' ? `$ ${input.command}`
        : JSON.stringify(input);
    parts.push(`${event.tool_name} ${shown}`);
  }
  if (event.hook_event_name !== 'PreToolUse') {
    if (event.team_name) parts.push(`team ${event.team_name}`);
    if (event.teammate_name && !event.agent_type && !resolved) parts.push(`teammate ${event.teammate_name}`);
    if (event.task_subject) parts.push(`task "${event.task_subject}"`);
    if (event.source) parts.push(`source ${event.source}`);
  }
  return parts.join(dim(' · '));
}

function relative(target, project) {
  return target === project || target.startsWith(`${project}/`) ? target.slice(project.length + 1) || '.' : target;
}

function explain(record) {
  if (!record) return [dim('no decision-log line was written')];
  const out = [];
  if (record.bypass) {
    const rules = record.bypass.rules?.length ? ` (${record.bypass.rules.join(', ')})` : '';
    out.push(`${record.bypass.env}=${record.bypass.value} switches the pack's rules off${rules}; the bypass is logged`);
  }
  if (record.rules.length > 0 && record.reason) out.push(`${record.rules.join(', ')}: ${record.reason}`);
  else if (record.rules.length > 0) out.push(record.rules.join(', '));
  for (const c of record.contexts ?? []) if (record.reason === null) out.push(`context: ${c}`);
  for (const w of record.warnings ?? []) out.push(`warning: ${w}`);
  for (const e of record.errors ?? []) out.push(red(`error: ${e}`));
  if (out.length === 0) out.push(dim('no rule matched'));
  return out;
}

main();
