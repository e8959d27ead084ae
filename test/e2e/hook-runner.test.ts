/**
 * The runner as Claude Code runs it: `node bin/policy.cjs hook` with the event on stdin,
 * in a temporary project, reading stdout, stderr and the exit code.
 */
import { execFileSync, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { unsealed } from '../../engine/host/cache/cache-trust';

const repo = path.join(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'policy.cjs');
const dist = path.join(repo, 'dist');

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
  ms: number;
}

let tmp: string;
let cacheDir: string;

beforeAll(() => {
  const bundles = ['hook.cjs', 'compile.cjs', 'cli.cjs', 'webhook-sender.cjs'];
  if (!bundles.every((b) => fs.existsSync(path.join(dist, b)))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

/**
 * The cache folder's files but the compile memo (compile-memo.json), one per folder whatever the policies, and the
 * sweep's stamp. (The V8 code caches live in the installation, not here.)
 */
function policyCacheFiles(): string[] {
  return fs.readdirSync(cacheDir).filter((f) => f !== 'compile-memo.json' && f !== 'sweep.stamp').sort();
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hook-')));
  cacheDir = path.join(tmp, 'cache');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A project folder with files (path -> content). */
function project(name: string, files: Record<string, string>): string {
  const root = path.join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  fs.mkdirSync(root, { recursive: true });
  return root;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !['CLAUDE_PROJECT_DIR', 'POLICY_CONFIG', 'HOOKPOLICY_CACHE_DIR'].includes(k)) env[k] = v;
  }
  return { ...env, HOOKPOLICY_CACHE_DIR: cacheDir };
}

function hook(stdin: string | object, options: { args?: string[]; env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const child = spawn(process.execPath, [bin, 'hook', ...(options.args ?? [])], {
      cwd: options.cwd ?? tmp,
      env: { ...baseEnv(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code, ms: Date.now() - start }));
    child.stdin.end(typeof stdin === 'string' ? stdin : JSON.stringify(stdin));
  });
}

const ENV_POLICY = `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write|Edit
    paths: { deny: [".env", ".env.*"] }
    deny: "{{path}} holds secrets."
`;

const writeEvent = (root: string, file: string) => ({
  hook_event_name: 'PreToolUse', session_id: 's-1', cwd: root, tool_name: 'Write', tool_input: { file_path: file, content: 'x' },
});

const DENY_ENV = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}\n';

describe('answers', () => {
  it('says nothing when no rule matches', async () => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    expect(await hook(writeEvent(root, `${root}/src/app.ts`), { env: { CLAUDE_PROJECT_DIR: root } }))
      .toMatchObject({ stdout: '', stderr: '', code: 0 });
  });

  it('denies with the exact JSON Claude Code reads', async () => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    const run = await hook(writeEvent(root, `${root}/.env`), { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run).toMatchObject({ stdout: DENY_ENV, stderr: '', code: 0 });
  });

  it('blocks through exit code 2 where the event needs it', async () => {
    const root = project('p', { '.claude/policies.yaml': 'version: 1\nrules:\n  - { id: busy, on: TeammateIdle, block: "Write your notes first." }\n' });
    const run = await hook({ hook_event_name: 'TeammateIdle', cwd: root, teammate_name: 'ba' }, { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run).toMatchObject({ stdout: '', stderr: 'Write your notes first.\n', code: 2 });
  });
});

describe('prompts: a typed prompt or a background subagent\'s notification', () => {
  // The example of docs/language.md: a UserPromptSubmit context rule with `prompts: user`.
  const doc = fs.readFileSync(path.join(repo, 'docs', 'language.md'), 'utf8');
  const example = [...doc.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)]
    .map(([, indent, body]) => body.replace(new RegExp(`^${indent}`, 'gm'), ''))
    .find((body) => body.includes('prompts: user')) ?? '';
  const context = /context: "(.*)"/.exec(example)?.[1];
  const promptEvent = (root: string, prompt: string) => ({
    session_id: 's-1', transcript_path: `${root}/s-1.jsonl`, cwd: root, prompt_id: 'p-1',
    permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt,
  });

  it('adds the context to a typed prompt, not to a finished subagent\'s notification', async () => {
    expect(context).toEqual(expect.any(String));
    const root = project('p', { '.claude/policies.yaml': `version: 1\nrules:\n${example.replace(/^(?=.)/gm, '  ')}` });
    const env = { CLAUDE_PROJECT_DIR: root };
    const typed = await hook(promptEvent(root, 'fix the failing test'), { env });
    expect(typed).toMatchObject({ stderr: '', code: 0 });
    expect(JSON.parse(typed.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } });
    const notification = '<task-notification>\n<task-id>a1b2c3</task-id>\n<tool-use-id>toolu_01</tool-use-id>\n'
      + '<status>completed</status>\n<summary>Agent "explore" completed</summary>\n<result>Found 3 call sites.</result>\n</task-notification>';
    expect(await hook(promptEvent(root, notification), { env })).toMatchObject({ stdout: '', stderr: '', code: 0 });
  });
});

describe('failures are visible, per on_error', () => {
  it.each(['', 'not json', '[1,2]', '{"no_name":true}'])('malformed stdin %j fails open by default', async (stdin) => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    const run = await hook(stdin, { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ systemMessage: expect.stringMatching(/^hookpolicy: error event-malformed: .*failing open/) });
  });

  it('malformed stdin with --on-error closed cannot deny an unknown event, and says so', async () => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    const run = await hook('[]', { args: ['--on-error', 'closed'], env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.hookSpecificOutput).toBeUndefined();
    expect(out.systemMessage).toMatch(/event-malformed.*failing closed/);
  });

  it('a missing policy is reported, failing open or closed', async () => {
    const root = project('empty', {});
    const open = await hook(writeEvent(root, `${root}/.env`), { env: { CLAUDE_PROJECT_DIR: root } });
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout).systemMessage).toMatch(/no-policy.*failing open/);
    const closed = await hook(writeEvent(root, `${root}/.env`), { args: ['--on-error=closed'], env: { CLAUDE_PROJECT_DIR: root } });
    expect(JSON.parse(closed.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/no-policy/) });
  });

  it('a broken YAML policy names file:line:col', async () => {
    const root = project('p', { '.claude/policies.yaml': 'version: 1\nrules:\n  - id: a\n    on: [Stop\n' });
    const run = await hook({ hook_event_name: 'Stop', cwd: root }, { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.code).toBe(0);
    const message = JSON.parse(run.stdout).systemMessage as string;
    expect(message).toMatch(new RegExp(`${root}/\\.claude/policies\\.yaml:\\d+:\\d+: error yaml-`));
    expect(run.stderr).toContain(`${root}/.claude/policies.yaml:`);
  });

  it('a policy error fails closed when the flag says so', async () => {
    const root = project('p', { '.claude/policies.yaml': 'version: 1\nrules:\n  - id: a\n    on: Stop\n    blok: "typo"\n' });
    const run = await hook({ hook_event_name: 'Stop', cwd: root }, { args: ['--on-error', 'closed'], env: { CLAUDE_PROJECT_DIR: root } });
    const out = JSON.parse(run.stdout);
    expect(out.decision).toBe('block');
    expect(out.reason).toMatch(/policies\.yaml:5:5: error/);
  });
});

describe('the compiled-policy cache', () => {
  const included = (id: string, message: string) => `version: 1\nrules:\n  - { id: ${id}, on: Stop, block: "${message}" }\n`;

  it('rebuilds after an included file changes, and reuses it otherwise', async () => {
    const root = project('p', {
      '.claude/policies.yaml': 'version: 1\ninclude: [./team/stop.yaml]\n',
      '.claude/team/stop.yaml': included('first', 'first rule'),
    });
    const stop = { hook_event_name: 'Stop', cwd: root };
    const env = { CLAUDE_PROJECT_DIR: root };
    expect(JSON.parse((await hook(stop, { env })).stdout).reason).toBe('first rule');
    // The whole artefact, the head the runner reads first, and the view of the event that
    // built it (Stop); the views of other events are cut as they come.
    const files = policyCacheFiles();
    const kinds = files.map((f) => f.replace(/^[0-9a-f]+/, 'X').replace(/view\.[0-9a-f]+/, 'view.V'));
    expect(kinds).toEqual(['X.head.json', 'X.json', 'X.view.V.json']);
    const written = files.map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs);
    await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse((await hook(stop, { env })).stdout).reason).toBe('first rule');
    expect(files.map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs)).toEqual(written);

    fs.writeFileSync(path.join(root, '.claude/team/stop.yaml'), included('second', 'second rule'));
    expect(JSON.parse((await hook(stop, { env })).stdout).reason).toBe('second rule');
    expect(policyCacheFiles()).toEqual(files);
  });

  it('concurrent runners on a cold cache all answer the same, leaving one whole artefact', async () => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    const runs = await Promise.all(Array.from({ length: 6 }, () => hook(writeEvent(root, '.env'), { env: { CLAUDE_PROJECT_DIR: root } })));
    expect(runs.map((r) => [r.stdout, r.stderr, r.code])).toEqual(runs.map(() => [DENY_ENV, '', 0]));
    const files = policyCacheFiles();
    const whole = files.filter((f) => /^[0-9a-f]+\.json$/.test(f));
    expect([whole.length, files.filter((f) => f.endsWith('.head.json')).length]).toEqual([1, 1]);
    expect(JSON.parse(unsealed(fs.readFileSync(path.join(cacheDir, whole[0]), 'utf8')) as string).policy.rules.map((r: { id: string }) => r.id)).toEqual(['no-env-writes', 'hookpolicy-self-protection', 'hookpolicy-server-secrets', 'hookpolicy-server-secrets']);
  });

  it("a build removes a deleted project's cache files once they are a month old", async () => {
    const worktree = project('worktree', { '.claude/policies.yaml': ENV_POLICY });
    await hook(writeEvent(worktree, '.env'), { env: { CLAUDE_PROJECT_DIR: worktree } });
    const left = policyCacheFiles();
    const monthAgo = (Date.now() - 31 * 24 * 3600 * 1000) / 1000;
    for (const f of left) fs.utimesSync(path.join(cacheDir, f), monthAgo, monthAgo);
    fs.rmSync(worktree, { recursive: true });
    // The folder is swept at most once an hour: the worktree's build swept it.
    const hoursAgo = (Date.now() - 2 * 3600 * 1000) / 1000;
    fs.utimesSync(path.join(cacheDir, 'sweep.stamp'), hoursAgo, hoursAgo);

    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    expect(await hook(writeEvent(root, '.env'), { env: { CLAUDE_PROJECT_DIR: root } })).toMatchObject({ stdout: DENY_ENV, stderr: '', code: 0 });
    const now = policyCacheFiles();
    expect(now.filter((f) => left.includes(f))).toEqual([]);
    expect(now.filter((f) => f.endsWith('.head.json'))).toHaveLength(1);
  });

  it('survives a corrupt cache file with a warning on stderr', async () => {
    const root = project('p', { '.claude/policies.yaml': ENV_POLICY });
    const env = { CLAUDE_PROJECT_DIR: root };
    await hook(writeEvent(root, '.env'), { env });
    for (const kind of ['.head.json', '.view.']) {
      const cacheFile = policyCacheFiles().find((f) => f.includes(kind)) as string;
      fs.writeFileSync(path.join(cacheDir, cacheFile), '{ half a fi');
      const run = await hook(writeEvent(root, '.env'), { env });
      expect(run.stdout).toBe(DENY_ENV);
      // A corrupt head is reported; a corrupt view is rewritten without a word.
      if (kind === '.head.json') expect(run.stderr).toMatch(/warning cache-error/);
      expect((await hook(writeEvent(root, '.env'), { env })).stderr).toBe('');
      expect(JSON.parse(unsealed(fs.readFileSync(path.join(cacheDir, cacheFile), 'utf8')) as string)).toBeTruthy();
    }
  });
});

describe('finding the project and the policy', () => {
  const STOP = (message: string) => `version: 1\nrules:\n  - { id: stop, on: Stop, block: "${message}" }\n`;

  it('--config is resolved against the project root', async () => {
    const root = project('p', { 'conf/ci.yaml': STOP('from --config'), '.claude/policies.yaml': STOP('default') });
    const run = await hook({ hook_event_name: 'Stop' }, { args: ['--config', 'conf/ci.yaml'], env: { CLAUDE_PROJECT_DIR: root } });
    expect(JSON.parse(run.stdout).reason).toBe('from --config');
  });

  it('several --config files all apply', async () => {
    const root = project('p', { 'a.yaml': ENV_POLICY, 'b.yaml': STOP('from b') });
    const args = ['--config', 'a.yaml', '--config', `${root}/b.yaml`];
    expect((await hook(writeEvent(root, '.env'), { args, env: { CLAUDE_PROJECT_DIR: root } })).stdout).toBe(DENY_ENV);
    expect(JSON.parse((await hook({ hook_event_name: 'Stop' }, { args, env: { CLAUDE_PROJECT_DIR: root } })).stdout).reason).toBe('from b');
  });

  it('$POLICY_CONFIG holds several paths (where the project\'s policy allows it: test/robustness/policy-config.test.ts)', async () => {
    const root = project('p', { 'x/a.yaml': ENV_POLICY, 'x/b.yaml': STOP('from env'), '.claude/policies.yaml': `${STOP('default')}settings:\n  policy_config: allow\n` });
    const env = { CLAUDE_PROJECT_DIR: root, POLICY_CONFIG: ['x/a.yaml', 'x/b.yaml'].join(path.delimiter) };
    expect((await hook(writeEvent(root, '.env'), { env })).stdout).toBe(DENY_ENV);
    expect(JSON.parse((await hook({ hook_event_name: 'Stop' }, { env })).stdout).reason).toBe('from env');
  });

  it('a shipped pack is found beside the bundle', async () => {
    const root = project('p', { '.claude/policies.yaml': 'version: 1\ninclude: [security-guard]\n' });
    const run = await hook(writeEvent(root, '.git/config'), { env: { CLAUDE_PROJECT_DIR: root } });
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(run.stderr).toBe('');
  });

  it('a named policy that does not exist is an error, not a fallback', async () => {
    const root = project('p', { '.claude/policies.yaml': STOP('default') });
    const run = await hook({ hook_event_name: 'Stop' }, { args: ['--config', 'missing.yaml'], env: { CLAUDE_PROJECT_DIR: root } });
    expect(JSON.parse(run.stdout).systemMessage).toMatch(/policy-not-found/);
  });

  it('policies.yaml at the root is found when .claude/policies.yaml is absent', async () => {
    const root = project('p', { 'policies.yaml': STOP('root file') });
    expect(JSON.parse((await hook({ hook_event_name: 'Stop' }, { env: { CLAUDE_PROJECT_DIR: root } })).stdout).reason).toBe('root file');
  });

  it('$CLAUDE_PROJECT_DIR wins over the event cwd, which wins over the process cwd', async () => {
    const a = project('a', { '.claude/policies.yaml': STOP('project a') });
    const b = project('b', { '.claude/policies.yaml': STOP('project b') });
    const c = project('c', { '.claude/policies.yaml': STOP('project c') });
    const reason = async (event: object, env: Record<string, string>) => JSON.parse((await hook(event, { env, cwd: c })).stdout).reason;
    expect(await reason({ hook_event_name: 'Stop', cwd: b }, { CLAUDE_PROJECT_DIR: a })).toBe('project a');
    expect(await reason({ hook_event_name: 'Stop', cwd: b }, {})).toBe('project b');
    expect(await reason({ hook_event_name: 'Stop' }, {})).toBe('project c');
  });
});

describe('the decision log', () => {
  it('appends one JSON line per recorded decision', async () => {
    const root = project('p', { '.claude/policies.yaml': `${ENV_POLICY}settings:\n  log: { file: logs/decisions.jsonl }\n` });
    const env = { CLAUDE_PROJECT_DIR: root };
    await hook(writeEvent(root, '.env'), { env });
    await hook(writeEvent(root, 'src/ok.ts'), { env });
    await hook(writeEvent(root, '.env.local'), { env });
    const lines = fs.readFileSync(path.join(root, 'logs/decisions.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), session_id: 's-1', event: 'PreToolUse', tool: 'Write', agent: null, outcome: 'deny',
        rules: ['no-env-writes'], reason: '.env holds secrets.', paths: ['.env'], policy: [`${root}/.claude/policies.yaml`],
        duration_ms: expect.any(Number), prev: '0'.repeat(64),
      },
      expect.objectContaining({ outcome: 'deny', paths: ['.env.local'] }),
    ]);
    // The hash chain: each line names the SHA-256 of the line before it (docs/commands/log.md).
    const raw = fs.readFileSync(path.join(root, 'logs/decisions.jsonl'), 'utf8').split('\n');
    expect(lines[1].prev).toBe(crypto.createHash('sha256').update(raw[0]).digest('hex'));
  });
});

describe('the webhook', () => {
  let server: http.Server;
  let url: string;
  let onRequest: (body: string, res: http.ServerResponse) => void;
  let late: NodeJS.Timeout | undefined;

  beforeEach(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => onRequest(body, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/decisions`;
  });
  afterEach(async () => {
    clearTimeout(late);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const policyWith = (timeoutMs: number) =>
    `${ENV_POLICY}settings:\n  log:\n    webhook: { url: "${url}", timeout_ms: ${timeoutMs}, headers: { X-Team: red } }\n`;

  it('receives the record as JSON', async () => {
    const received = new Promise<string>((resolve) => {
      onRequest = (body, res) => { res.end('ok'); resolve(body); };
    });
    const root = project('p', { '.claude/policies.yaml': policyWith(2000) });
    const run = await hook(writeEvent(root, '.env'), { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.stdout).toBe(DENY_ENV);
    expect(JSON.parse(await received)).toMatchObject({ event: 'PreToolUse', outcome: 'deny', rules: ['no-env-writes'], session_id: 's-1' });
  });

  it('a server that never answers does not delay the hook', async () => {
    let answered = false;
    const arrived = new Promise<void>((resolve) => {
      onRequest = (_body, res) => {
        resolve();
        late = setTimeout(() => { answered = true; res.end('late'); }, 3000);
      };
    });
    const root = project('p', { '.claude/policies.yaml': policyWith(5000) });
    const env = { CLAUDE_PROJECT_DIR: root };
    await hook(writeEvent(root, '.env'), { env }); // compiles and caches
    const run = await hook(writeEvent(root, '.env'), { env });
    expect(run.stdout).toBe(DENY_ENV);
    expect(run.ms).toBeLessThan(1500);
    await arrived;
    expect(answered).toBe(false);
  });
});

describe('the bundles', () => {
  const read = (name: string) => fs.readFileSync(path.join(dist, name), 'utf8');
  // Strings each library uses at run time; the slow bundles prove the markers are real.
  const markers = { commander: 'commander.unknownOption', yaml: 'BLOCK_FOLDED', ajv: 'strictSchema' };

  it('keep commander, yaml and ajv out of the hot path', () => {
    const hot = read('hook.cjs');
    for (const marker of Object.values(markers)) expect(hot).not.toContain(marker);
    expect(read('compile.cjs')).toContain(markers.yaml);
    // The policy schema's validator is ajv's standalone code, generated at build time: no ajv to load on a cache miss.
    expect(read('compile.cjs')).not.toContain(markers.ajv);
    expect(read('cli.cjs')).toContain(markers.ajv);
    expect(read('cli.cjs')).toContain(markers.commander);
    expect(hot).toContain('require("./compile.cjs")');
    expect(hot).not.toMatch(/^var import_jsonata|node_modules\/jsonata/m);
  });

  it('the CLI lists hook in --help and prints its version', () => {
    const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^\s+hook \[options\]/m);
    const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
  });
});
