/**
 * The runner's policy cache made ahead of it: `policy lint` (on the project's own policy)
 * and `policy init` compile the policy anyway and leave the cache the runner reads, so the
 * first hook event after an edit saved through them does not compile. Run as Claude Code
 * runs the runner, in a temp project with its own cache folder.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const repo = path.join(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'policy.cjs');

let tmp: string;
let root: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-cache-ahead-')));
  root = path.join(tmp, 'p');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('{{path}} holds secrets.'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const policy = (reason: string) => `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "${reason}"
  - id: no-rm
    on: PreToolUse
    tools: Bash
    command: ['\\brm\\b']
    deny: "no rm"
`;

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['POLICY_CONFIG', 'HOOKPOLICY_CODE_CACHE', 'NODE_EXTRA_CA_CERTS'].includes(k)) out[k] = v;
  return { ...out, CLAUDE_PROJECT_DIR: root, HOME: path.join(tmp, 'home'), HOOKPOLICY_CACHE_DIR: path.join(tmp, 'cache'), TMPDIR: tmp };
}

function policyCli(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: root, env: env(), encoding: 'utf8' });
}

/** One event through the runner; `compiled` says whether it loaded the compiler (dist/compile.cjs). */
function hook(event: Record<string, unknown>) {
  // The code cache's report names each module loaded: the compiler is dist/compile.cjs.
  const r = spawnSync(process.execPath, [bin, 'hook'], { input: JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'PreToolUse', ...event }), env: { ...env(), HOOKPOLICY_DEBUG_CODE_CACHE: '1' }, encoding: 'utf8' });
  return { code: r.status, decision: r.stdout.trim() === '' ? null : JSON.parse(r.stdout).hookSpecificOutput?.permissionDecisionReason, compiled: /code cache \w+ compile\.cjs /.test(r.stderr) };
}

const writeEnv = { tool_name: 'Write', tool_input: { file_path: '.env', content: '' } };
const rm = { tool_name: 'Bash', tool_input: { command: 'rm -r build' } };

it('after an edit, the runner compiles at its first event; after the same edit and policy lint, no event compiles, and each answers with the edit', () => {
  expect(hook(writeEnv)).toEqual({ code: 0, decision: '.env holds secrets.', compiled: true });
  expect(hook(writeEnv).compiled).toBe(false);

  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('never write {{path}}'));
  expect(hook(writeEnv)).toEqual({ code: 0, decision: 'never write .env', compiled: true });

  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('{{path}}: ask the user'));
  const lint = policyCli('lint');
  expect([lint.status, lint.stderr]).toEqual([0, '']);
  // Every event kind's view is there: a Bash call, whose view no event has cut yet, compiles nothing either.
  expect(hook(writeEnv)).toEqual({ code: 0, decision: '.env: ask the user', compiled: false });
  expect(hook(rm)).toEqual({ code: 0, decision: 'no rm', compiled: false });
});

it('a lint that finds errors, or of a file named on the command line, leaves the cache alone', () => {
  expect(hook(writeEnv).compiled).toBe(true);
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), `${policy('x')}  - id: broken\n    on: NoSuchEvent\n    deny: y\n`);
  expect(policyCli('lint').status).toBe(1);
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('named {{path}}'));
  expect(policyCli('lint', '.claude/policies.yaml').status).toBe(0);
  expect(hook(writeEnv)).toEqual({ code: 0, decision: 'named .env', compiled: true });
});

it('policy init makes the cache for the runner it registers', () => {
  fs.mkdirSync(path.join(root, 'node_modules'));
  fs.symlinkSync(repo, path.join(root, 'node_modules', 'hookpolicy'), 'dir');
  expect(policyCli('init', '--mode', 'command').status).toBe(0);
  expect(hook(writeEnv)).toEqual({ code: 0, decision: '.env holds secrets.', compiled: false });
});

it('a cache policy lint made for other facts (another home: other files to guard) is not used: the runner compiles its own', () => {
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('{{path}}: other home'));
  const elsewhere = spawnSync(process.execPath, [bin, 'lint'], { cwd: root, env: { ...env(), HOME: path.join(tmp, 'another-home') }, encoding: 'utf8' });
  expect(elsewhere.status).toBe(0);
  expect(hook(writeEnv)).toEqual({ code: 0, decision: '.env: other home', compiled: true });
  expect(hook(writeEnv).compiled).toBe(false);
});
