/**
 * A broken policy, through the real binary: every fault is reported visibly, naming the
 * file (and line:column where the fault is inside a file), on stderr and in what Claude
 * Code shows; on_error decides the rest: open -> no decision; closed -> deny on
 * PreToolUse, block on Stop, exit 2 on TeammateIdle.
 */
import * as fs from 'node:fs';
import { ensureBuilt, inPool, makeSandbox, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';

interface Fault {
  name: string;
  files: Record<string, string | Buffer>;
  args?: string[];
  /** The diagnostic code reported. */
  code: string;
  /** Where: a sandbox-relative file, and 'line:col' when the fault lies inside it. */
  file: string;
  at: string | null;
  /** A runtime fault: the policy builds and fails while evaluating ("failing closed" with no suffix). */
  runtime?: boolean;
  /** Filled in when it depends on the machine (see beforeAll). */
  skip?: string;
}

const ON_ALL = 'on: [PreToolUse, Stop, TeammateIdle]';
const rule = (body: string) => `version: 1\nrules:\n  - id: r\n    ${ON_ALL}\n${body}`;

const FAULTS: Fault[] = [
  { name: 'a --config file that does not exist', files: {}, args: ['--config', 'missing.yaml'], code: 'policy-not-found', file: 'missing.yaml', at: null },
  { name: 'YAML syntax error', files: { '.claude/policies.yaml': 'version: 1\nrules:\n  - id: r\n    on: [Stop\n' }, code: 'yaml-syntax', file: '.claude/policies.yaml', at: '5:1' },
  { name: 'duplicate YAML key', files: { '.claude/policies.yaml': rule('    block: a\n    block: b\n') }, code: 'yaml-duplicate-key', file: '.claude/policies.yaml', at: '6:5' },
  { name: 'schema error (unknown key)', files: { '.claude/policies.yaml': rule('    blok: "typo"\n') }, code: 'schema-unknown-key', file: '.claude/policies.yaml', at: '5:5' },
  { name: 'an empty policy file', files: { '.claude/policies.yaml': '' }, code: 'schema-type', file: '.claude/policies.yaml', at: '1:1' },
  { name: 'binary garbage', files: { '.claude/policies.yaml': Buffer.from([0x00, 0xff, 0xfe, 0x20, 0x01, 0x0a]) }, code: 'schema-type', file: '.claude/policies.yaml', at: '1:1' },
  { name: 'a bad glob', files: { '.claude/policies.yaml': rule('    paths: { deny: ["{a,b"] }\n    block: x\n') }, code: 'invalid-glob', file: '.claude/policies.yaml', at: '5:21' },
  { name: 'a bad regex', files: { '.claude/policies.yaml': rule('    command: ["(a"]\n    block: x\n') }, code: 'invalid-regex', file: '.claude/policies.yaml', at: '5:15' },
  { name: 'an include that is missing', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team/nope.yaml]\n' }, code: 'include-not-found', file: '.claude/policies.yaml', at: '2:11' },
  { name: 'a broken included file', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team/x.yaml]\n', '.claude/team/x.yaml': rule('    blok: x\n') }, code: 'schema-unknown-key', file: '.claude/team/x.yaml', at: '5:5' },
  { name: 'a --config path that is a folder (cannot be read)', files: { 'conf.yaml/keep': '' }, args: ['--config', 'conf.yaml'], code: 'policy-not-found', file: 'conf.yaml', at: null },
  { name: 'an include that is a folder (cannot be read)', files: { '.claude/policies.yaml': 'version: 1\ninclude: [./team]\n', '.claude/team/keep': '' }, code: 'include-not-found', file: '.claude/policies.yaml', at: '2:11' },
  { name: 'a file without read permission', files: { '.claude/policies.yaml': rule('    block: x\n') }, code: 'policy-not-found', file: '.claude/policies.yaml', at: null },
  { name: 'an expression that throws at run time', files: { '.claude/policies.yaml': rule('    when: "$error(\'boom\')"\n    block: x\n') }, code: 'expression-error', file: '.claude/policies.yaml', at: '3:5', runtime: true },
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

const suffix = (fault: Fault, mode: 'open' | 'closed') =>
  fault.runtime ? `(failing ${mode})` : `(failing ${mode}: the event was not checked)`;

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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
