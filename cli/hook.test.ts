import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compilePolicyFiles } from '../engine/host/compile-entry';
import { eventProtocols } from '../engine/protocol';
import type { PolicyCompiler } from '../engine/host/cache';
import { HOOK_USAGE, parseHookArgs } from './hook-args';
import { parseEvent, runHook, type HookInput } from './hook';

let project: string;
let cacheDir: string;
const compiler = (): PolicyCompiler => ({ compilePolicyFiles });

beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'runhook-')));
  cacheDir = path.join(project, '..', `${path.basename(project)}-cache`);
});
afterEach(() => {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

function writePolicy(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
  fs.writeFileSync(path.join(project, rel), text);
}

function run(event: unknown, extra: Partial<HookInput> = {}) {
  return runHook({
    argv: [],
    stdin: typeof event === 'string' ? event : JSON.stringify(event),
    env: { CLAUDE_PROJECT_DIR: project, HOOKPOLICY_CACHE_DIR: cacheDir },
    cwd: project,
    compiler,
    ...extra,
  });
}

const STOP_POLICY = 'version: 1\nrules:\n  - id: keep-going\n    on: Stop\n    block: "Not done yet."\n';

describe('parseHookArgs', () => {
  it.each<[string[], { configs: string[]; onError: string | null; host?: string; problems: number }]>([
    [[], { configs: [], onError: null, problems: 0 }],
    [['--config', 'a.yaml', '-c', 'b.yaml', '--config=c.yaml'], { configs: ['a.yaml', 'b.yaml', 'c.yaml'], onError: null, problems: 0 }],
    [['--on-error', 'closed'], { configs: [], onError: 'closed', problems: 0 }],
    [['--on-error=open'], { configs: [], onError: 'open', problems: 0 }],
    [['--on-error', 'shut'], { configs: [], onError: null, problems: 1 }],
    [['--config'], { configs: [], onError: null, problems: 1 }],
    [['--verbose'], { configs: [], onError: null, problems: 1 }],
    [['--host', 'codex'], { configs: [], onError: null, host: 'codex', problems: 0 }],
    [['--host=gemini'], { configs: [], onError: null, host: 'gemini', problems: 0 }],
    [['--host', 'claude'], { configs: [], onError: null, problems: 0 }],
    [['--host', 'cursor'], { configs: [], onError: null, problems: 1 }],
  ])('%j', (argv, expected) => {
    const args = parseHookArgs(argv);
    expect({ configs: args.configs, onError: args.onError, ...(args.host ? { host: args.host } : {}), problems: args.problems.length }).toEqual(expected);
  });
});

describe('parseEvent', () => {
  it.each<[string, boolean]>([
    ['{"hook_event_name":"Stop"}', true],
    ['\uFEFF{"hook_event_name":"Stop","extra":1}', true],
    ['', false],
    ['not json', false],
    ['[{"hook_event_name":"Stop"}]', false],
    ['{"hook_event_name":""}', false],
    ['{"hook_event_name":3}', false],
    ['null', false],
  ])('%j', (stdin, ok) => {
    expect(parseEvent(stdin) !== null).toBe(ok);
  });
});

describe('runHook', () => {
  it('answers from the policy', async () => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    const result = await run({ hook_event_name: 'Stop' });
    expect(result.response).toEqual({ stdout: '{"decision":"block","reason":"Not done yet."}\n', stderr: '', exitCode: 0 });
    expect(result.decision?.decidedBy.map((h) => h.id)).toEqual(['keep-going']);
  });

  it('fails visibly, and open, without a policy', async () => {
    const result = await run({ hook_event_name: 'Stop' });
    expect(JSON.parse(result.response.stdout).systemMessage).toMatch(/no-policy.*failing open/);
    expect(result.response.exitCode).toBe(0);
  });

  it('fails closed on a malformed event when --on-error closed', async () => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    const open = await run('[]');
    expect(JSON.parse(open.response.stdout).systemMessage).toMatch(/event-malformed/);
    const closed = await run('[]', { argv: ['--on-error', 'closed'] });
    expect(closed.response.stderr).toMatch(/event-malformed.*failing closed/);
    expect(closed.decision).toBeNull();
  });

  it('reports usage problems instead of ignoring them, per on_error where exit 2 would stop the event', async () => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    const result = await run({ hook_event_name: 'Stop' }, { argv: ['--on-eror', 'closed'] });
    expect(result.response.exitCode).toBe(0);
    expect(JSON.parse(result.response.stdout).systemMessage)
      .toMatch(/error hook-usage: policy hook: unknown option '--on-eror'; unexpected argument 'closed' \(usage: policy hook .*\) \(failing open/);
    const closed = await run({ hook_event_name: 'Stop' }, { argv: ['--bogus', '--on-error', 'closed'] });
    expect([closed.response.exitCode, JSON.parse(closed.response.stdout).decision]).toEqual([0, 'block']);
  });

  it.each(['SessionStart', 'SessionEnd', 'Notification', 'SubagentStart'])('exits 2 with the usage on stderr on %s, which exit 2 cannot stop', async (event) => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    const result = await run({ hook_event_name: event }, { argv: ['--bogus'] });
    expect(result.response).toEqual({
      stdout: '',
      stderr: `policy hook: unknown option '--bogus' (usage: ${HOOK_USAGE})\n`,
      exitCode: 2,
    });
  });

  it('exits 2 with the usage on stderr when there is no event at all (run by hand)', async () => {
    const result = await run('', { argv: ['--on-error=shut'] });
    expect(result.response.exitCode).toBe(2);
    expect(result.response.stderr).toBe(`policy hook: --on-error must be open or closed, not "shut" (usage: ${HOOK_USAGE})\n`);
  });

  it.each(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'TeammateIdle', 'WorktreeRemove', 'PostToolUse', 'FutureEvent'])(
    'never exits 2 for a usage error on %s unless on_error is closed', async (event) => {
      writePolicy('.claude/policies.yaml', 'version: 1\nrules: []\n');
      const result = await run({ hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'ls' } }, { argv: ['--bogus'] });
      expect(result.response.exitCode).toBe(0);
      expect(result.response.stderr).toContain("hook-usage: policy hook: unknown option '--bogus'");
    },
  );

  it('names file:line:col of a broken policy, failing per the last good on_error', async () => {
    writePolicy('.claude/policies.yaml', 'version: 1\nsettings: { on_error: closed }\nrules:\n  - id: keep-going\n    on: Stop\n    block: "x"\n');
    expect((await run({ hook_event_name: 'Stop' })).response.stdout).toContain('"decision":"block"');
    writePolicy('.claude/policies.yaml', 'version: 1\nrules:\n  - id: a\n    on: Stop\n    blok: "x"\nagents: { roles: { a: [b], b: [a] } }\n');
    const result = await run({ hook_event_name: 'Stop' });
    const file = path.join(project, '.claude/policies.yaml').split(path.sep).join('/');
    expect(result.response.stdout).toContain(`${file}:5:5`);
    expect(JSON.parse(result.response.stdout).decision).toBe('block');
    expect(result.response.stdout).toMatch(/failing closed/);
  });

  it('answers per on_error when the deadline passes', async () => {
    writePolicy('.claude/policies.yaml', `${STOP_POLICY}settings: { deadline_ms: 50, on_error: closed }\n`);
    const start = Date.now();
    const result = await run({ hook_event_name: 'Stop' }, { evaluator: () => new Promise(() => undefined) });
    expect(Date.now() - start).toBeLessThan(2000);
    expect(result.timedOut).toBe(true);
    expect(JSON.parse(result.response.stdout)).toMatchObject({ decision: 'block' });
    expect(result.response.stdout).toMatch(/deadline-exceeded/);
  });

  it('turns an exception into internal-error, never a stack trace', async () => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    const result = await run({ hook_event_name: 'Stop' }, { evaluator: () => { throw new Error('kaboom'); } });
    expect(result.response.exitCode).toBe(0);
    expect(JSON.parse(result.response.stdout).systemMessage).toMatch(/internal-error: unexpected error in policy hook: kaboom/);
    expect(result.response.stdout).not.toMatch(/\n\s+at /);
  });

  it('reports a cache it cannot write on stderr only', async () => {
    writePolicy('.claude/policies.yaml', STOP_POLICY);
    fs.writeFileSync(cacheDir, 'a file, not a folder');
    const result = await run({ hook_event_name: 'Stop' }, { cacheDirs: [path.join(cacheDir, 'x')] });
    expect(result.response.stdout).toBe('{"decision":"block","reason":"Not done yet."}\n');
    expect(result.response.exitCode).toBe(0);
    expect(result.response.stderr).toMatch(/^hookpolicy: warning cache-error: cannot write the policy cache/);
    expect(result.warnings.map((w) => w.code)).toEqual(['cache-error']);
  });
});

describe('docs/commands/hook.md, usage errors', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'commands', 'hook.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- hook-usage-exit2:start -->'), doc.indexOf('<!-- hook-usage-exit2:end -->'));
  const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| events') && !l.startsWith('|---'));
  const eventsOf = (row: string) => row.split('|')[1].split(',').map((e) => e.trim()).filter((e) => /^[A-Z][A-Za-z]+$/.test(e));

  it('says what exit 2 does on every event, once', () => {
    const listed = rows.flatMap(eventsOf);
    expect([...listed].sort()).toEqual(eventProtocols().map((p) => p.event).sort());
  });

  it('exits 2 on a usage error exactly on the events that cannot be blocked', () => {
    const exit2 = rows.filter((r) => r.endsWith('| exit 2, the message on stderr |')).flatMap(eventsOf);
    expect(exit2.sort()).toEqual(eventProtocols().filter((p) => p.block === null).map((p) => p.event).sort());
  });
});
