/**
 * A broken policy, through the real binary: every fault is reported visibly, naming the
 * file (and line:column where the fault is inside a file), on stderr and in what Claude
 * Code shows; on_error decides the events the broken part could have judged: open -> no
 * decision; closed -> deny on PreToolUse, block on Stop, exit 2 on TeammateIdle. A broken
 * rule or file is left out and the rest of the policy keeps enforcing.
 */
import * as fs from 'node:fs';
import { ensureBuilt, inPool, makeSandbox, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';
import { packMessage } from '../support/run-hook';

interface Fault {
  name: string;
  files: Record<string, string | Buffer>;
  args?: string[];
  /** The diagnostic code reported. */
  code: string;
  /** Where: a sandbox-relative file, and 'line:col' when the fault lies inside it. */
  file: string;
  at: string | null;
  /**
   * What the fault breaks: the whole policy ("failing closed: the event was not checked"),
   * rule r or the file (left out: "rule "r" was left out: failing closed"), or nothing at
   * build time (a runtime fault: "failing closed").
   */
  breaks: 'policy' | 'rule' | 'file' | 'runtime';
  /** Filled in when it depends on the machine (see beforeAll). */
  skip?: string;
}

const ON_ALL = 'on: [PreToolUse, Stop, TeammateIdle]';
const rule = (body: string) => `version: 1\nrules:\n  - id: r\n    ${ON_ALL}\n${body}`;

const FAULTS: Fault[] = [
  { name: 'a --config file that does not exist', files: {}, args: ['--config', 'missing.yaml'], code: 'policy-not-found', file: 'missing.yaml', at: null, breaks: 'policy' },
  { name: 'YAML syntax error', files: { '.claude/policies.yaml': 'version: 1\nrules:\n  - id: r\n    on: [Stop\n' }, code: 'yaml-syntax', file: '.claude/policies.yaml', at: '5:1', breaks: 'policy' },
  { name: 'duplicate YAML key', files: { '.claude/policies.yaml': rule('    block: a\n    block: b\n') }, code: 'yaml-duplicate-key', file: '.claude/policies.yaml', at: '6:5', breaks: 'rule' },
  { name: 'schema error (unknown key)', files: { '.claude/policies.yaml': rule('    blok: "typo"\n') }, code: 'schema-unknown-key', file: '.claude/policies.yaml', at: '5:5', breaks: 'rule' },
  { name: 'an empty policy file', files: { '.claude/policies.yaml': '' }, code: 'schema-type', file: '.claude/policies.yaml', at: '1:1', breaks: 'policy' },
  { name: 'binary garbage', files: { '.claude/policies.yaml': Buffer.from([0x00, 0xff, 0xfe, 0x20, 0x01, 0x0a]) }, code: 'schema-type', file: '.claude/policies.yaml', at: '1:1', breaks: 'policy' },
  { name: 'a bad glob', files: { '.claude/policies.yaml': rule('    paths: { deny: ["{a,b"] }\n    block: x\n') }, code: 'invalid-glob', file: '.claude/policies.yaml', at: '5:21', breaks: 'rule' },
  { name: 'a bad regex', files: { '.claude/policies.yaml': rule('    command: ["(a"]\n    block: x\n') }, code: 'invalid-regex', file: '.claude/policies.yaml', at: '5:15', breaks: 'rule' },
  { name: 'an include that is missing', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team/nope.yaml]\n' }, code: 'include-not-found', file: '.claude/policies.yaml', at: '2:11', breaks: 'file' },
  { name: 'a broken included file', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team/x.yaml]\n', '.claude/team/x.yaml': rule('    blok: x\n') }, code: 'schema-unknown-key', file: '.claude/team/x.yaml', at: '5:5', breaks: 'rule' },
  { name: 'a --config path that is a folder (cannot be read)', files: { 'conf.yaml/keep': '' }, args: ['--config', 'conf.yaml'], code: 'policy-not-found', file: 'conf.yaml', at: null, breaks: 'policy' },
  { name: 'an include that is a folder (cannot be read)', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team]\n', '.claude/team/keep': '' }, code: 'include-not-found', file: '.claude/policies.yaml', at: '2:11', breaks: 'file' },
  { name: 'a file without read permission', files: { '.claude/policies.yaml': rule('    block: x\n') }, code: 'policy-not-found', file: '.claude/policies.yaml', at: null, breaks: 'policy' },
  { name: 'an expression that throws at run time', files: { '.claude/policies.yaml': rule('    when: "$error(\'boom\')"\n    block: x\n') }, code: 'expression-error', file: '.claude/policies.yaml', at: '3:5', breaks: 'runtime' },
];

const EVENTS = {
  PreToolUse: (dir: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${dir}/a.ts` } }),
  Stop: () => ({ hook_event_name: 'Stop' }),
  TeammateIdle: () => ({ hook_event_name: 'TeammateIdle', teammate_name: 'ba' }),
};
type EventName = keyof typeof EVENTS;
const matrix = FAULTS.flatMap((fault) => (Object.keys(EVENTS) as EventName[]).map((event) => [fault.name, event, fault] as const));

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let boxes: Map<string, Sandbox>;
/** Every run of the matrix, made up front four at a time: key `fault|event|mode`. */
const results = new Map<string, SpawnResult>();

beforeAll(async () => {
  ensureBuilt();
  boxes = new Map();
  for (const fault of FAULTS) {
    const box = makeSandbox();
    for (const [rel, content] of Object.entries(fault.files)) box.write(rel, content);
    if (fault.name === 'a file without read permission') {
      // Root reads anyway; the folder cases above cover "cannot be read" there.
      if (isRoot) fault.skip = 'running as root';
      else fs.chmodSync(box.file('.claude/policies.yaml'), 0o000);
    }
    boxes.set(fault.name, box);
  }
  const runs = matrix.flatMap(([, event, fault]) => (['open', 'closed'] as const).map((mode) => ({ event, fault, mode })));
  await inPool(runs, 4, async ({ event, fault, mode }) => {
    if (fault.skip) return;
    results.set(`${fault.name}|${event}|${mode}`, await run(fault, event, mode === 'closed' ? ['--on-error', 'closed'] : []));
  });
}, 120_000);
afterAll(() => {
  for (const box of boxes?.values() ?? []) {
    try {
      fs.chmodSync(box.file('.claude/policies.yaml'), 0o600);
    } catch {
      // Not every sandbox has one.
    }
    box.remove();
  }
});

/** "FILE:LINE:COL: error CODE: " or "FILE: error CODE: ", as the runner formats it. */
function where(box: Sandbox, fault: Fault): string {
  return `hookpolicy: ${box.file(fault.file)}${fault.at ? `:${fault.at}` : ''}: error ${fault.code}: `;
}

const SUFFIXES = {
  policy: (mode: string) => `(failing ${mode}: the event was not checked)`,
  rule: (mode: string) => `(rule "r" was left out: failing ${mode})`,
  file: (mode: string) => `(this file was left out: failing ${mode})`,
  runtime: (mode: string) => `(failing ${mode})`,
};
const suffix = (fault: Fault, mode: 'open' | 'closed') => SUFFIXES[fault.breaks](mode);

function run(fault: Fault, event: EventName, args: string[]): Promise<SpawnResult> {
  const box = boxes.get(fault.name)!;
  return spawnHook(JSON.stringify(EVENTS[event](box.dir)), { projectDir: box.dir, cacheDir: box.cacheDir, args: [...(fault.args ?? []), ...args] });
}


describe('on_error open: no decision, the failure shown', () => {
  it.each(matrix)('%s on %s', (_n, event, fault) => {
    if (fault.skip) return;
    const box = boxes.get(fault.name)!;
    const r = results.get(`${fault.name}|${event}|open`)!;
    expect(responseProblems(r)).toEqual([]);
    const message = `${where(box, fault)}`;
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({ systemMessage: expect.stringContaining(message) });
    expect(out.systemMessage.endsWith(suffix(fault, 'open'))).toBe(true);
    expect(r.stderr).toBe(`${out.systemMessage}\n`);
  });
});

describe('on_error closed (--on-error closed): deny, block, or exit 2', () => {
  it.each(matrix)('%s on %s', (_n, event, fault) => {
    if (fault.skip) return;
    const box = boxes.get(fault.name)!;
    const r = results.get(`${fault.name}|${event}|closed`)!;
    expect(responseProblems(r)).toEqual([]);
    const message = expect.stringMatching(new RegExp(`^${escape(where(box, fault))}.*${escape(suffix(fault, 'closed'))}$`));
    if (event === 'TeammateIdle') {
      expect(r).toMatchObject({ exitCode: 2, stdout: '' });
      expect(r.stderr.trimEnd()).toEqual(message);
      return;
    }
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    if (event === 'PreToolUse') {
      expect(out).toEqual({
        systemMessage: message,
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: message },
      });
    } else {
      expect(out).toEqual({ decision: 'block', reason: message, systemMessage: message });
    }
    expect(r.stderr).toBe(`${out.systemMessage}\n`);
  });
});

describe('on_error closed written in the policy file itself', () => {
  const closedRule = (body: string) => `version: 1\nsettings: { on_error: closed }\nrules:\n  - id: r\n    ${ON_ALL}\n${body}`;

  it('is honoured for a runtime fault', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': closedRule('    when: "$error(\'boom\')"\n    block: x\n') });
    try {
      const r = await spawnHook(JSON.stringify({ hook_event_name: 'TeammateIdle' }), { projectDir: box.dir, cacheDir: box.cacheDir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/expression-error: .*\(failing closed\)\n$/);
    } finally {
      box.remove();
    }
  });

  it('is honoured for a build fault once an earlier version of the policy was cached', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': closedRule('    block: fine\n') });
    try {
      const opts = { projectDir: box.dir, cacheDir: box.cacheDir };
      expect((await spawnHook('{"hook_event_name":"Stop"}', opts)).stdout).toBe('{"decision":"block","reason":"fine"}\n');
      box.write('.claude/policies.yaml', closedRule('    blok: typo\n'));
      const r = await spawnHook('{"hook_event_name":"Stop"}', opts);
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/schema-unknown-key.*failing closed/) });
    } finally {
      box.remove();
    }
  });

  // The files' own on_error counts even when nothing was ever compiled for them.
  test('is honoured for a build fault on a cold cache', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': closedRule('    blok: typo\n') });
    try {
      const r = await spawnHook('{"hook_event_name":"Stop"}', { projectDir: box.dir, cacheDir: box.cacheDir });
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/failing closed/) });
    } finally {
      box.remove();
    }
  });
});

describe('other events (a YAML fault)', () => {
  let box: Sandbox;
  beforeAll(() => {
    box = makeSandbox({ '.claude/policies.yaml': 'version: 1\nrules:\n  - id: r\n    on: [Stop\n' });
  });
  afterAll(() => box.remove());
  const message = (tail: string) => expect.stringMatching(new RegExp(`^hookpolicy: .*policies\\.yaml:5:1: error yaml-syntax: .*\\(${escape(tail)}\\)$`));

  it.each([
    ['SessionEnd', 'open', 'failing open: the event was not checked', null],
    ['Notification', 'open', 'failing open: the event was not checked', null],
    ['SessionEnd', 'closed', 'failing closed, but SessionEnd cannot be blocked: the event was not checked', null],
    ['Notification', 'closed', 'failing closed, but Notification cannot be blocked: the event was not checked', null],
    ['PostToolUse', 'closed', 'failing closed: the event was not checked', 'block'],
    ['UserPromptSubmit', 'closed', 'failing closed: the event was not checked', 'block'],
  ] as const)('%s, on_error %s', async (event, mode, tail, channel) => {
    const args = mode === 'closed' ? ['--on-error', 'closed'] : [];
    const r = await spawnHook(JSON.stringify({ hook_event_name: event }), { projectDir: box.dir, cacheDir: box.cacheDir, args });
    expect(responseProblems(r)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr.trimEnd()).toEqual(message(tail));
    if (channel === null) expect(r.stdout).toBe('');
    else expect(JSON.parse(r.stdout)).toEqual({ decision: 'block', reason: r.stderr.trimEnd(), systemMessage: r.stderr.trimEnd() });
  });
});

describe('no policy at all', () => {
  it.each([
    ['open', [], { systemMessage: expect.stringMatching(/^hookpolicy: error no-policy: no policy file: looked for .*\(failing open: the event was not checked\)/) }],
    ['closed', ['--on-error', 'closed'], {
      systemMessage: expect.stringMatching(/no-policy.*failing closed/),
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/no-policy.*failing closed/) },
    }],
  ] as const)('fails %s, naming the folder searched', async (_mode, args, expected) => {
    const box = makeSandbox();
    try {
      const r = await spawnHook(JSON.stringify(EVENTS.PreToolUse(box.dir)), { projectDir: box.dir, cacheDir: box.cacheDir, args: [...args] });
      expect(JSON.parse(r.stdout)).toEqual(expected);
      expect(r.stderr).toContain(box.dir);
    } finally {
      box.remove();
    }
  });
});

describe('a broken team rule next to the included security-guard pack', () => {
  // `tool:` for `tools:` in the team's own rule; a valid rule on Stop beside it.
  const team = (settings: string) => [
    'version: 1',
    'include: [security-guard]',
    settings,
    'rules:',
    '  - id: no-src-writes',
    '    on: PreToolUse',
    '    tool: Write',
    '    paths: { deny: ["src/**"] }',
    '    deny: "not in src"',
    '  - id: tests-pass',
    '    on: Stop',
    '    block: "run the tests"',
    '',
  ].join('\n');
  const MODES = ['open', 'closed'] as const;
  const boxes = new Map<string, Sandbox>();
  beforeAll(() => {
    for (const mode of MODES) boxes.set(mode, makeSandbox({ '.claude/policies.yaml': team(`settings: { on_error: ${mode}, log: { file: decisions.jsonl } }`) }));
  });
  afterAll(() => boxes.forEach((box) => box.remove()));

  const run = (mode: 'open' | 'closed', event: Record<string, unknown>) => {
    const box = boxes.get(mode)!;
    return spawnHook(JSON.stringify({ session_id: 's', cwd: box.dir, ...event }), { projectDir: box.dir, cacheDir: box.cacheDir });
  };
  const write = (mode: 'open' | 'closed', file: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${boxes.get(mode)!.dir}/${file}`, content: 'x' } });
  /** The broken rule, named with file:line:col, then what happened to this event. */
  const named = (mode: 'open' | 'closed', consequence: string) =>
    `hookpolicy: ${boxes.get(mode)!.file('.claude/policies.yaml')}:7:5: error schema-unknown-key: Unknown key "tool" in rules[0] (did you mean "tools"?) (rule "no-src-writes" ${consequence})`;

  it.each(MODES)('on_error %s: a .env write is still denied by the pack, and the broken rule is named', async (mode) => {
    const r = await run(mode, write(mode, '.env'));
    expect(responseProblems(r)).toEqual([]);
    const out = JSON.parse(r.stdout);
    const guard = packMessage('security-guard', 'guard-no-secret-writes', { path: '.env', tool: 'Write' });
    expect(out.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(out.hookSpecificOutput.permissionDecisionReason.startsWith(guard)).toBe(true);
    expect(out.systemMessage).toBe(named(mode, `was left out: failing ${mode}`));
    expect(r.stderr).toBe(`${out.systemMessage}\n`);
  });

  it('on_error open: an event the broken rule could have judged goes through, with the warning', async () => {
    const r = await run('open', write('open', 'src/app.ts'));
    expect(responseProblems(r)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ systemMessage: named('open', 'was left out: failing open') });
  });

  it('on_error closed: an event the broken rule could have judged is denied, the diagnostic as reason', async () => {
    const r = await run('closed', write('closed', 'src/app.ts'));
    expect(responseProblems(r)).toEqual([]);
    const message = named('closed', 'was left out: failing closed');
    expect(JSON.parse(r.stdout)).toEqual({
      systemMessage: message,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: message },
    });
  });

  it.each(MODES)('on_error %s: events the broken rule could not have judged are decided by the valid rules alone', async (mode) => {
    const notice = named(mode, 'was left out; it could not have judged this event');
    const stop = await run(mode, { hook_event_name: 'Stop' });
    expect(responseProblems(stop)).toEqual([]);
    expect(JSON.parse(stop.stdout)).toEqual({ decision: 'block', reason: 'run the tests', systemMessage: notice });
    const prompt = await run(mode, { hook_event_name: 'UserPromptSubmit', prompt: 'hello' });
    expect(responseProblems(prompt)).toEqual([]);
    expect(JSON.parse(prompt.stdout)).toEqual({ systemMessage: notice });
    expect(prompt.stderr).toBe(`${notice}\n`);
  });

  it('every event\'s record in the decision log names the broken rule, until it is fixed', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': team('settings: { log: { file: decisions.jsonl } }') });
    try {
      const opts = { projectDir: box.dir, cacheDir: box.cacheDir };
      for (let i = 0; i < 2; i++) await spawnHook(JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }), opts); // a miss, then the cache
      const log = () => fs.readFileSync(box.file('decisions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      const where = `${box.file('.claude/policies.yaml')}:7:5: error schema-unknown-key`;
      expect(log().map((r) => r.errors.some((e: string) => e.startsWith(where)))).toEqual([true, true]);
      box.write('.claude/policies.yaml', team('settings: { log: { file: decisions.jsonl } }').replace('tool: Write', 'tools: Write'));
      const fixed = await spawnHook(JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }), opts);
      expect(fixed.stdout).toBe('{"decision":"block","reason":"run the tests"}\n');
      expect(log()[2].errors).toBeUndefined();
    } finally {
      box.remove();
    }
  });

  it('a team file that is not YAML is left out as a whole; the pack still denies', async () => {
    const box = makeSandbox({
      '.claude/policies.yaml': 'version: 1\ninclude: [security-guard, ./team.yaml]\nsettings: { on_error: closed }\n',
      '.claude/team.yaml': 'version: 1\nrules: [oops\n',
    });
    try {
      const opts = { projectDir: box.dir, cacheDir: box.cacheDir };
      const env = await spawnHook(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${box.dir}/.env` } }), opts);
      const out = JSON.parse(env.stdout);
      expect(out.hookSpecificOutput.permissionDecisionReason.startsWith(packMessage('security-guard', 'guard-no-secret-writes', { path: '.env', tool: 'Write' }))).toBe(true);
      expect(out.systemMessage).toMatch(new RegExp(`^hookpolicy: ${escape(box.file('.claude/team.yaml'))}:\\d+:\\d+: error yaml-syntax: .*\\(this file was left out: failing closed\\)$`));
      // Its rules could have judged anything: on_error closed refuses the other events too.
      const stop = await spawnHook('{"hook_event_name":"Stop"}', opts);
      expect(JSON.parse(stop.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/yaml-syntax.*this file was left out: failing closed/) });
    } finally {
      box.remove();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
