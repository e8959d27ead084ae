/**
 * Bad input on stdin: the runner never crashes, writes nothing or exactly one JSON object,
 * exits 0 or 2, follows on_error where it cannot decide, and ignores what it does not
 * need. Property tests run in-process by the hundred (fixed seed, see fuzz-config.ts);
 * a sample of the same inputs and the named cases go through the real binary.
 */
import fc from 'fast-check';
import type { HookResult } from '../../cli/hook';
import { fcParams, sampleOf } from '../support/fuzz-config';
import { hookInProcess } from '../support/hook-in-process';
import { ensureBuilt, inPool, makeSandbox, responseProblems, robustnessFixture, spawnHook, type Sandbox } from '../support/hook-process';

const EVENT_NAMES = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'UserPromptSubmit',
  'Stop', 'SubagentStop', 'TeammateIdle', 'TaskCompleted', 'SessionStart', 'SessionEnd', 'Notification', 'PreCompact',
  'SubagentStart', 'PreModelSwitch', 'WorktreeCreate',
];
const MALFORMED_OPEN = /^hookpolicy: error event-malformed: .*\(failing open: the event was not checked\)$/;
const MALFORMED_CLOSED = /^hookpolicy: error event-malformed: .*\(failing closed, but an unreadable event cannot be blocked: the event was not checked\)$/;
const DENY_ENV = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}\n';

let open: Sandbox;
let closed: Sandbox;

beforeAll(() => {
  ensureBuilt();
  const policy = robustnessFixture('fuzz-policy.yaml');
  const notes = { 'notes/ba.md': 'done\n', 'PLAN.md': 'status: wip\n' };
  open = makeSandbox({ '.claude/policies.yaml': policy, ...notes });
  closed = makeSandbox({ '.claude/policies.yaml': `${policy}settings:\n  on_error: closed\n`, ...notes });
}, 120_000);
afterAll(() => {
  open?.remove();
  closed?.remove();
});

const inProcess = (box: Sandbox, stdin: string, args: string[] = []) => hookInProcess(stdin, { projectDir: box.dir, cacheDir: box.cacheDir, args });
const spawned = (box: Sandbox, stdin: string | Buffer, args: string[] = []) => spawnHook(stdin, { projectDir: box.dir, cacheDir: box.cacheDir, args });

// ---- arbitraries ------------------------------------------------------------------------

/** Any JSON value, shallow enough to stay fast. */
const junk = fc.jsonValue({ maxDepth: 3 });
const maybe = <T>(plausible: fc.Arbitrary<T>) => fc.oneof(plausible, junk);

/** Objects shaped like hook events: known names and fields with plausible or wrong values, plus unknown fields. */
const eventLike = fc.tuple(
  fc.record({
    hook_event_name: fc.oneof(fc.constantFrom(...EVENT_NAMES), fc.string({ minLength: 1 })),
    session_id: maybe(fc.uuid()),
    cwd: junk,
    permission_mode: maybe(fc.constantFrom('default', 'plan', 'acceptEdits', 'bypassPermissions', 'yolo')),
    tool_name: maybe(fc.constantFrom('Write', 'Edit', 'Read', 'Bash', 'WebFetch', 'Glob', 'mcp__x__delete_y')),
    tool_input: maybe(fc.record({
      file_path: maybe(fc.constantFrom('.env', '.env.local', 'src/a.ts', '/etc/hosts', '../../x', '', 'C:\\x\\.env')),
      path: junk,
      command: maybe(fc.constantFrom('rm -rf /', 'git push origin main', 'ls -la', '')),
      url: maybe(fc.constantFrom('https://evil.example', 'https://ok.example')),
      content: junk,
    }, { requiredKeys: [] })),
    agent_type: fc.oneof(fc.constantFrom('ba', 'team:amy', 'Explore', null), junk),
    teammate_name: maybe(fc.constantFrom('ba', 'amy', '../../etc')),
    prompt: maybe(fc.constantFrom('my password is x', 'hello')),
    stop_hook_active: junk,
    source: maybe(fc.constantFrom('startup', 'resume', 'weird')),
  }, { requiredKeys: ['hook_event_name'] }),
  fc.dictionary(fc.string(), junk, { maxKeys: 4 }),
).map(([known, extra]) => ({ ...extra, ...known }));

/** Any text at all on stdin. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json(),
  junk.map((v) => JSON.stringify(v)),
  eventLike.map((e) => JSON.stringify(e)),
);

const denyEvent = (dir: string, noise: Record<string, unknown> = {}) => ({
  ...noise,
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: `${dir}/.env`, content: 'x' },
});

function expectWellFormed(result: HookResult | { stdout: string; stderr: string; exitCode: number | null }): void {
  const response = 'response' in result ? result.response : result;
  expect(responseProblems(response)).toEqual([]);
}

// ---- properties, in-process ---------------------------------------------------------------

describe('properties (in-process)', () => {
  it('any text on stdin: a well-formed answer, with on_error open and closed', async () => {
    await fc.assert(fc.asyncProperty(anyText, fc.boolean(), async (stdin, useClosed) => {
      const result = await inProcess(useClosed ? closed : open, stdin);
      expectWellFormed(result);
    }), fcParams());
  });

  it('stdin that is not an event object fails per on_error, visibly', async () => {
    const notAnEvent = fc.oneof(
      fc.string().filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
      fc.oneof(fc.array(junk), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string()).map((v) => JSON.stringify(v)),
      fc.record({ hook_event_name: fc.oneof(fc.constant(''), fc.integer(), fc.constant(null), fc.array(fc.string())) }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(fc.asyncProperty(notAnEvent, async (stdin) => {
      const opened = (await inProcess(open, stdin)).response;
      expect(opened.exitCode).toBe(0);
      expect(JSON.parse(opened.stdout)).toEqual({ systemMessage: expect.stringMatching(MALFORMED_OPEN) });
      const shut = (await inProcess(open, stdin, ['--on-error', 'closed'])).response;
      expect(shut.exitCode).toBe(0);
      expect(JSON.parse(shut.stdout)).toEqual({ systemMessage: expect.stringMatching(MALFORMED_CLOSED) });
    }), fcParams(0.5));
  });

  it('event-shaped objects with wrong types and unknown fields: well formed, hookEventName echoes the event', async () => {
    await fc.assert(fc.asyncProperty(eventLike, fc.boolean(), async (event, useClosed) => {
      const { response } = await inProcess(useClosed ? closed : open, JSON.stringify(event));
      expectWellFormed(response);
      if (response.stdout !== '') {
        const out = JSON.parse(response.stdout) as { hookSpecificOutput?: { hookEventName?: string } };
        if (out.hookSpecificOutput) expect(out.hookSpecificOutput.hookEventName).toBe(event.hook_event_name);
      }
    }), fcParams());
  });

  it('a deny survives noise in every field it does not need (agent_type null, permission_mode missing, junk cwd...)', async () => {
    const noise = fc.record({
      agent_type: fc.oneof(fc.constant(null), junk),
      permission_mode: junk,
      session_id: junk,
      transcript_path: junk,
      tool_use_id: junk,
      cwd: junk,
      hook_event_version: junk,
    }, { requiredKeys: [] });
    const extra = fc.dictionary(fc.string().filter((k) => !['hook_event_name', 'tool_name', 'tool_input'].includes(k)), junk, { maxKeys: 5 });
    await fc.assert(fc.asyncProperty(noise, extra, async (n, e) => {
      const { response } = await inProcess(open, JSON.stringify(denyEvent(open.dir, { ...e, ...n })));
      expect(response).toEqual({ stdout: DENY_ENV, stderr: '', exitCode: 0 });
    }), fcParams(0.5));
  });

  it('every truncation of a valid event is reported as malformed, never half-read', async () => {
    const text = JSON.stringify({ ...denyEvent(open.dir), session_id: 's-1', agent_type: 'ba', cwd: open.dir });
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: text.length - 1 }), async (cut) => {
      const { response } = await inProcess(open, text.slice(0, cut));
      expect(JSON.parse(response.stdout)).toEqual({ systemMessage: expect.stringMatching(MALFORMED_OPEN) });
    }), fcParams(0.5));
  });
});

// ---- the same inputs through the binary ---------------------------------------------------

describe('a sample through the spawned binary', () => {
  it('answers exactly as in-process', async () => {
    const inputs = [...sampleOf(anyText, 6), ...sampleOf(eventLike, 6).map((e) => JSON.stringify(e))];
    await inPool(inputs, 4, async (stdin) => {
      const real = await spawned(open, stdin);
      expectWellFormed(real);
      const mine = (await inProcess(open, stdin)).response;
      expect({ stdout: real.stdout, exitCode: real.exitCode }).toEqual({ stdout: mine.stdout, exitCode: mine.exitCode });
    });
  });
});

// ---- named cases ---------------------------------------------------------------------------

type Expect = 'malformed' | 'deny' | 'silent';

const nest = (depth: number, leaf: string, open1: string, close1: string) => `${open1.repeat(depth)}${leaf}${close1.repeat(depth)}`;

/** [name, stdin (built from the project folder), expected answer]. */
const NAMED: Array<[string, (dir: string) => string | Buffer, Expect]> = [
  ['empty stdin', () => '', 'malformed'],
  ['whitespace only', () => ' \n\t ', 'malformed'],
  ['not JSON', () => 'PreToolUse please', 'malformed'],
  ['a JSON array holding an event', (d) => JSON.stringify([denyEvent(d)]), 'malformed'],
  ['a number', () => '42', 'malformed'],
  ['a string', () => '"PreToolUse"', 'malformed'],
  ['true', () => 'true', 'malformed'],
  ['null', () => 'null', 'malformed'],
  ['truncated JSON', (d) => JSON.stringify(denyEvent(d)).slice(0, 40), 'malformed'],
  ['two JSON objects', (d) => `${JSON.stringify(denyEvent(d))}\n${JSON.stringify(denyEvent(d))}`, 'malformed'],
  ['invalid UTF-8', () => Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]), 'malformed'],
  ['10 MB of garbage', () => 'x'.repeat(10 * 1024 * 1024), 'malformed'],
  ['100,000 nested arrays', () => nest(100_000, '1', '[', ']'), 'malformed'],
  ['hook_event_name a number', () => '{"hook_event_name":7,"tool_name":"Write"}', 'malformed'],
  ['hook_event_name null', () => '{"hook_event_name":null}', 'malformed'],
  ['a BOM before the event', (d) => `\uFEFF${JSON.stringify(denyEvent(d))}`, 'deny'],
  ['a 10 MB event (huge content)', (d) => JSON.stringify({ ...denyEvent(d), tool_input: { file_path: `${d}/.env`, content: 'y'.repeat(10 * 1024 * 1024) } }), 'deny'],
  ['100,000 levels nested inside tool_input', (d) => JSON.stringify(denyEvent(d)).replace('"content":"x"', `"content":${nest(100_000, '1', '{"a":', '}')}`), 'deny'],
  ['agent_type null, permission_mode missing', (d) => JSON.stringify({ ...denyEvent(d), agent_type: null }), 'deny'],
  ['null where strings are documented', (d) => JSON.stringify({ ...denyEvent(d), session_id: null, transcript_path: null, cwd: null, permission_mode: null }), 'deny'],
  ['50 unknown fields', (d) => JSON.stringify({ ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x_${i}`, { i }])), ...denyEvent(d) }), 'deny'],
  ['unknown permission_mode value', (d) => JSON.stringify({ ...denyEvent(d), permission_mode: 'yolo' }), 'deny'],
  ['tool_input a string', () => '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":".env"}', 'silent'],
  ['tool_input null', () => '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":null}', 'silent'],
  ['tool_name a number', (d) => JSON.stringify({ ...denyEvent(d), tool_name: 42 }), 'silent'],
  ['file_path a number', () => '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":7}}', 'silent'],
  ['command an array', () => '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}', 'silent'],
  ['unknown source value on SessionStart', () => '{"hook_event_name":"SessionStart","source":"teleport"}', 'silent'],
  ['an unknown event name', () => '{"hook_event_name":"FutureEvent","tool_name":"Write","tool_input":{"file_path":".env"}}', 'silent'],
];

describe('named cases through the spawned binary', () => {
  const cases = NAMED.flatMap(([name, stdin, expected]) => (['open', 'closed'] as const).map((mode) => ({ name, stdin, expected, mode })));

  it.each(cases.map((c) => [`${c.name} (on_error ${c.mode})`, c] as const))('%s', async (_label, c) => {
    const args = c.mode === 'closed' ? ['--on-error', 'closed'] : [];
    const run = await spawned(open, c.stdin(open.dir), args);
    expectWellFormed(run);
    if (c.expected === 'deny') {
      expect(run).toMatchObject({ stdout: DENY_ENV, stderr: '', exitCode: 0 });
    } else if (c.expected === 'silent') {
      expect(run).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    } else {
      const message = c.mode === 'closed' ? MALFORMED_CLOSED : MALFORMED_OPEN;
      expect(run.exitCode).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ systemMessage: expect.stringMatching(message) });
      expect(run.stderr.trim()).toMatch(message);
    }
  }, 30_000);

  it('on_error: closed from the settings is used for malformed stdin once the policy is cached', async () => {
    const warm = await spawned(closed, JSON.stringify({ hook_event_name: 'SessionEnd' }));
    expect(warm).toMatchObject({ stdout: '', exitCode: 0 });
    const run = await spawned(closed, 'not json');
    expect(JSON.parse(run.stdout)).toEqual({ systemMessage: expect.stringMatching(MALFORMED_CLOSED) });
  });

  it('a Stop event with junk fields still blocks under on_error closed', async () => {
    const run = await spawned(closed, JSON.stringify({ hook_event_name: 'Stop', stop_hook_active: 'yes', session_id: 5, extra: [1] }));
    expect(run).toMatchObject({ stdout: '{"decision":"block","reason":"Plan status wip: not done."}\n', exitCode: 0 });
  });
});
