/**
 * Patterns a team writes that an event could make backtrack for long: a glob in `paths`, a
 * `*` wildcard in `match`, a regex literal in `when`, a `require` glob walked over names the
 * agent chose. Through the built runner, in command mode and from the policy server, each
 * crafted event is answered within deadline_ms + 1 s, and the team's deny holds: a flagged
 * glob or wildcard is matched by its linear-time program (the exact answer); a flagged regex
 * in `when`, or a walk left to picomatch, runs under the watchdog (stopped, it answers
 * settings.oversized, never on_error: open).
 */
import * as fs from 'node:fs';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';
import { startPolicyServer, type PolicyServer } from '../support/policy-server';

beforeAll(() => ensureBuilt(), 120_000);

const DEADLINE_MS = 1000;
const POLICY = `version: 1
settings: { deadline_ms: ${DEADLINE_MS}, on_error: open }
rules:
  - id: no-ab-folders
    on: PreToolUse
    tools: [Write, Edit]
    paths: { deny: ["**/a*a*a*a*a*a*a*b/**"] }
    deny: "no ab folders"
  - id: no-ab-commands
    on: PreToolUse
    tools: Bash
    match: { tool_input.command: "*a*a*a*a*a*a*b*" }
    deny: "no ab commands"
  - id: no-bb-commands
    on: PreToolUse
    tools: Bash
    when: '$contains(tool_input.command, /^(b|b)*$/)'
    deny: "no bb commands"
  - id: notes-first
    on: PreToolUse
    tools: Read
    require: [{ file: "notes/[a]*[a]*[a]*[a]*[a]*[a]*b.md" }]
    deny: "write the notes first: {{unmet}}"
`;
/** A name the agent made, on which picomatch's regex for the `require` glob takes hours. */
const FILES = { '.claude/policies.yaml': POLICY, [`notes/${'a'.repeat(200)}`]: 'x' };

const write = (path: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path, content: 'x' } });
const bash = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

/** Each event, what the runner must answer, and why it would hang on a backtracking match. */
const CASES: Array<[string, string, 'deny' | 'ask' | 'pass', RegExp | null]> = [
  // picomatch's regex for the glob takes hours on a long first folder of `a`s: the first two
  // match (deny), the third does not (nothing to say).
  ['a team glob, a path it denies', write(`${'a'.repeat(300)}/aaaaaaab/x.ts`), 'deny', null],
  ['a team glob, a path it denies, written in upper case', write(`${'a'.repeat(300)}/AAAAAAAB/x.ts`), 'deny', null],
  ['a team glob, a path it does not deny', write(`${'a'.repeat(300)}/x.ts`), 'pass', null],
  ['a match wildcard, a command it denies', bash(`${'a'.repeat(300)}b`), 'deny', null],
  ['a match wildcard, a command it does not deny', bash(`${'a'.repeat(300)} ok`), 'pass', null],
  // JSONata's match of /^(b|b)*$/ is exponential: the watchdog stops it, and the deny rule
  // answers settings.oversized (ask), where on_error: open would have let the call through.
  ['a regex in when', bash(`${'b'.repeat(40)}!`), 'ask', /warning regex-unsafe: rule "no-bb-commands": .*ran longer than \d+ ms on this text and was stopped/],
  // A glob the walker leaves to picomatch (a class) walks under the watchdog: a stopped walk
  // answers settings.oversized too.
  ['a require glob walked past a crafted file name', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: 'src/a.ts' } }), 'ask',
    /warning regex-unsafe: rule "notes-first": glob "notes\/\[a\]\*.*" ran longer than \d+ ms on this text and was stopped/],
];

function outcomeOf(stdout: string): 'deny' | 'ask' | 'pass' {
  if (stdout === '') return 'pass';
  const decision = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
  return decision === 'deny' || decision === 'ask' ? decision : 'pass';
}

describe('in command mode', () => {
  let box: Sandbox;
  beforeAll(async () => {
    box = makeSandbox(FILES);
    // The policy compiled once, so that each case times evaluation, not the first compile.
    await spawnHook(bash('true'), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 30_000 });
  }, 40_000);
  afterAll(() => box.remove());

  test.each(CASES)('%s', async (_name, event, expected, warning) => {
    const started = Date.now();
    const r = await spawnHook(event, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.endedAt - started).toBeLessThan(DEADLINE_MS + 1000);
    expect(responseProblems(r)).toEqual([]);
    expect(outcomeOf(r.stdout)).toBe(expected);
    if (warning) expect(JSON.parse(r.stdout).systemMessage).toMatch(warning);
  }, 20_000);
});

describe('from the policy server', () => {
  let box: Sandbox;
  let server: PolicyServer;
  beforeAll(async () => {
    box = makeSandbox(FILES);
    server = await startPolicyServer({ projectDir: box.dir, cacheDir: box.cacheDir });
    await server.post(bash('true'));
  }, 40_000);
  afterAll(async () => {
    await server.stop();
    box.remove();
  });

  test.each(CASES)('%s', async (_name, event, expected, warning) => {
    const started = Date.now();
    const r = await server.post(event);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    expect(r.status).toBe(200);
    expect(outcomeOf(r.body === '{}' ? '' : r.body)).toBe(expected);
    if (warning) expect(JSON.parse(r.body).systemMessage).toMatch(warning);
  }, 20_000);

  test('one crafted event does not hold the next', async () => {
    const [slow, next] = await Promise.all([server.post(write(`${'a'.repeat(300)}/x.ts`)), server.post(write('src/ok.ts'))]);
    expect([slow.status, next.status]).toEqual([200, 200]);
  }, 20_000);
});

describe('with settings.oversized: deny', () => {
  test('a regex in when that the watchdog stops answers deny', async () => {
    const box = makeSandbox({ ...FILES, '.claude/policies.yaml': POLICY.replace('on_error: open }', 'on_error: open, oversized: deny }') });
    try {
      const r = await spawnHook(bash(`${'b'.repeat(40)}!`), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
      expect(outcomeOf(r.stdout)).toBe('deny');
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/could not check this call against rule "no-bb-commands": its pattern did not finish/);
    } finally {
      box.remove();
    }
  }, 30_000);
});

describe('a log.redact pattern', () => {
  test('that backtracks for long on a logged command is stopped: the answer is on time, the command redacted whole', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': `version: 1\nsettings: { deadline_ms: ${DEADLINE_MS}, log: { file: decisions.jsonl, redact: ["(c|c)*$"] } }\nrules:\n  - { id: no-rm, on: PreToolUse, tools: Bash, command: ['\\brm\\b'], deny: "no rm" }\n` });
    try {
      await spawnHook(bash('true'), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 30_000 });
      const started = Date.now();
      const r = await spawnHook(bash(`rm ${'c'.repeat(40)}!`), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
      expect(r.endedAt - started).toBeLessThan(DEADLINE_MS + 1000);
      expect(outcomeOf(r.stdout)).toBe('deny');
      const records = fs.readFileSync(box.file('decisions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const last = records[records.length - 1];
      expect(last).toMatchObject({ outcome: 'deny', command: '[REDACTED]' });
    } finally {
      box.remove();
    }
  }, 60_000);
});

// Modifier groups are regex syntax from Node 23 on: where this Node reads them, a pattern
// that hides a nested quantifier in one is guarded too (on Node 24 this command held the
// runner 32 s when the check missed it). The check itself is tested on every Node
// (engine/evaluate/regex-safety.test.ts).
const modifiers = (() => {
  try {
    return new RegExp('(?i:a)').test('A');
  } catch {
    return false;
  }
})();

(modifiers ? describe : describe.skip)('a modifier group, where this Node reads one', () => {
  test('a command pattern with a nested quantifier in (?i:...) is stopped by the watchdog, and the deny rule asks', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': 'version: 1\nsettings: { on_error: open }\nrules:\n  - { id: nested, on: PreToolUse, tools: Bash, command: ["(?i:a+)+$"], deny: "no" }\n' });
    try {
      const started = Date.now();
      const r = await spawnHook(bash(`${'a'.repeat(27)}!`), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
      expect(r.endedAt - started).toBeLessThan(8000);
      expect(outcomeOf(r.stdout)).toBe('ask');
      expect(JSON.parse(r.stdout).systemMessage).toMatch(/a quantifier applied to a group that contains a quantifier/);
    } finally {
      box.remove();
    }
  }, 30_000);
});
