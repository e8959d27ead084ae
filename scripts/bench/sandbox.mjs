// npm run bench:sandbox: what the sandbox of `unparsable: sandbox` costs a command, in wall
// time, interleaved with the same command run plainly (docs/paths.md#the-sandbox):
//   - a script that writes nothing: the fixed cost (node twice, unshare, the overlay, the judge's policy load);
//   - a command that writes N files in its lane, and N outside it: what judging and
//     committing (or discarding) each write adds.
// Linux only (the sandbox's platform); needs unprivileged user namespaces.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, summarize } from './stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'bin', 'policy.cjs');
const rounds = Number(process.env.ROUNDS ?? 15);

const project = mkdtempSync(join(tmpdir(), 'hp-bench-sandbox-'));
const cache = mkdtempSync(join(tmpdir(), 'hp-bench-cache-'));
mkdirSync(join(project, '.claude'));
mkdirSync(join(project, 'tests'));
mkdirSync(join(project, 'src'));
writeFileSync(join(project, '.claude', 'policies.yaml'), 'version: 1\ninclude: [ai-team]\n');
const env = { ...process.env, CLAUDE_PROJECT_DIR: project, HOOKPOLICY_CACHE_DIR: cache };

/** The sandboxed command line the runner answers for murdock's `command`. */
function sandboxed(command) {
  const event = { hook_event_name: 'PreToolUse', session_id: 'bench', cwd: project, agent_type: 'murdock', agent_id: 'am-1', tool_name: 'Bash', tool_input: { command } };
  const out = execFileSync(process.execPath, [bin, 'hook'], { input: JSON.stringify(event), cwd: project, env, encoding: 'utf8' });
  const line = JSON.parse(out).hookSpecificOutput?.updatedInput?.command;
  if (!line) throw new Error(`not sandboxed: ${out}`);
  return line;
}

function timed(line) {
  const start = process.hrtime.bigint();
  const run = spawnSync('bash', ['-c', line], { cwd: project, env, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 3) throw new Error(`${line}: exit ${run.status}: ${run.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function writer(n, folder) {
  const script = join(project, `write-${folder}-${n}.sh`);
  writeFileSync(script, `for i in $(seq 1 ${n}); do echo "x $i" > ${folder}/f$i.test.ts; done\n`);
  return `sh ${script}`;
}

writeFileSync(join(project, 'noop.sh'), ':\n');
const cases = [
  ['a script that writes nothing', `sh ${join(project, 'noop.sh')}`],
  ['10 files in the lane', writer(10, 'tests')],
  ['200 files in the lane', writer(200, 'tests')],
  ['10 files outside it', writer(10, 'src')],
  ['200 files outside it', writer(200, 'src')],
];
const results = [];
{
  // For scale on a loaded machine: one node start, as the sandbox pays two.
  const starts = [];
  for (let i = 0; i < rounds; i++) starts.push(timed(`${process.execPath} -e 0`));
  results.push({ command: 'node -e 0 (for scale)', plain_ms: round(summarize(starts).median, 1) });
}
for (const [name, command] of cases) {
  const line = sandboxed(command);
  const plain = [];
  const boxed = [];
  for (let i = 0; i < rounds; i++) {
    plain.push(timed(command));
    boxed.push(timed(line));
  }
  const p = summarize(plain);
  const b = summarize(boxed);
  results.push({ command: name, plain_ms: round(p.median, 1), sandboxed_ms: round(b.median, 1), added_ms: round(b.median - p.median, 1), sandboxed_p90_ms: round(b.p90, 1) });
}
console.log(`sandbox cost per command (${rounds} rounds, medians; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.table(results);
rmSync(project, { recursive: true, force: true });
rmSync(cache, { recursive: true, force: true });
