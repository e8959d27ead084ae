import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { EventEmitter } from 'events';
import { diagnostic } from '../diagnostics';
import type { CompiledPolicy, CompiledRule, Decision, Outcome, RuleHit } from '../types';
import { buildDecisionRecord, logCategories, recordDecision, webhookBody } from './decision-log';
import { DESTINATION_VAR } from './outbox';

const at = { file: '/p/.claude/policies.yaml', line: 1, column: 1 };

function rule(id: string, outcome: Outcome, log = true): CompiledRule {
  return {
    id, source: at, events: ['PreToolUse'], tools: null, prompts: null, agents: null, match: [], paths: null, command: null, when: null,
    onlyIfExists: null, lets: [], requires: [], outcome, message: id, bypasses: [], log,
  };
}

function policy(rules: CompiledRule[], log: Partial<CompiledPolicy['settings']['log']> = {}): CompiledPolicy {
  return {
    format: 1,
    sources: [{ file: at.file, hash: 'h' }],
    settings: {
      onError: 'open', bypasses: [], deadlineMs: 5000,
      log: { file: '.claude/decisions.jsonl', webhook: null, record: ['deny', 'ask', 'block', 'allow', 'warn', 'context', 'bypass', 'error'], ...log },
    },
    agents: { identity: [], stripPrefixes: [], main: null, roles: {}, known: [] },
    rules,
    index: { byEvent: {} },
  };
}

const hit = (id: string, outcome: Outcome, paths?: string[]): RuleHit => ({ id, outcome, message: `msg ${id}`, source: at, ...(paths ? { paths } : {}) });

function decision(fields: Partial<Decision>): Decision {
  return {
    event: 'PreToolUse', agent: 'ba', tool: 'Write', outcome: 'none', reason: null, decidedBy: [], hits: [], contexts: [],
    warnings: [], trace: [], bypass: null, errors: [], ...fields,
  };
}

const rules = [rule('d1', 'deny'), rule('d2', 'deny'), rule('quiet', 'deny', false), rule('w', 'warn'), rule('c', 'context'), rule('quiet-warn', 'warn', false)];
const deny = decision({ outcome: 'deny', reason: 'msg d1\nmsg d2', decidedBy: [hit('d1', 'deny', ['.env']), hit('d2', 'deny', ['.env', 'b'])], hits: [hit('d1', 'deny', ['.env']), hit('d2', 'deny', ['.env', 'b']), hit('w', 'warn')] });

describe('logCategories', () => {
  it.each<[string, Decision, string[]]>([
    ['deny with a warning', deny, ['deny', 'warn']],
    ['context only', decision({ hits: [hit('c', 'context')], contexts: ['msg c'] }), ['context']],
    ['nothing fired', decision({}), ['none']],
    ['bypass', decision({ bypass: { env: 'X', value: 'off', rules: ['d1'] } }), ['bypass']],
    ['runtime error', decision({ errors: [diagnostic('expression-error', 'boom', at)] }), ['error']],
    ['an info diagnostic is not an error', decision({ errors: [diagnostic('event-unknown', 'unknown event')] }), ['none']],
    ['only log:false rules fired', decision({ outcome: 'deny', decidedBy: [hit('quiet', 'deny')], hits: [hit('quiet', 'deny'), hit('quiet-warn', 'warn')] }), []],
  ])('%s', (_name, d, expected) => {
    expect(logCategories(d, policy(rules))).toEqual(expected);
  });
});

describe('buildDecisionRecord', () => {
  const event = { hook_event_name: 'PreToolUse', session_id: 'sess-1', tool_name: 'Write' };
  const now = new Date('2026-01-02T03:04:05.000Z');

  it('has the documented shape', () => {
    expect(buildDecisionRecord(deny, event, policy(rules), now)).toEqual({
      time: '2026-01-02T03:04:05.000Z', session_id: 'sess-1', event: 'PreToolUse', tool: 'Write', agent: 'ba', outcome: 'deny',
      rules: ['d1', 'd2'], reason: 'msg d1\nmsg d2', paths: ['.env', 'b'], warnings: ['msg w'], policy: [at.file],
    });
  });

  it('lists every hit when nothing decided, and leaves out log:false rules', () => {
    const d = decision({ hits: [hit('c', 'context'), hit('quiet-warn', 'warn'), hit('w', 'warn')], contexts: ['msg c'], warnings: ['msg quiet-warn', 'msg w'] });
    const record = buildDecisionRecord(d, { hook_event_name: 'PreToolUse' }, policy(rules), now);
    expect([record.session_id, record.outcome, record.rules, record.contexts, record.warnings, record.reason]).toEqual([null, 'none', ['c', 'w'], ['msg c'], ['msg w'], null]);
  });

  it('keeps the command, redacted with the log\'s patterns', () => {
    const bash = { ...event, tool_name: 'Bash', tool_input: { command: 'deploy --token abc123 ticket-42' } };
    const record = buildDecisionRecord({ ...deny, tool: 'Bash' }, bash, policy(rules, { redact: ['ticket-\\d+'] }), now);
    expect(record.command).toBe('deploy --token [REDACTED] [REDACTED]');
    expect('command' in buildDecisionRecord(deny, event, policy(rules), now)).toBe(false);
  });

  it('formats errors and keeps the bypass', () => {
    const d = decision({ errors: [diagnostic('expression-error', 'boom', at)], bypass: { env: 'X', value: 'off', rules: ['d1'] } });
    const record = buildDecisionRecord(d, { hook_event_name: 'PreToolUse' }, policy(rules), now);
    expect(record.errors).toEqual(['/p/.claude/policies.yaml:1:1: error expression-error: boom']);
    expect(record.bypass).toEqual({ env: 'X', value: 'off', rules: ['d1'] });
  });
});

describe('recordDecision', () => {
  let root: string;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'log-')); });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const now = new Date('2026-01-02T03:04:05.000Z');
  const lines = (file: string) => fs.readFileSync(path.join(root, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

  it('appends one JSON line per recorded decision, creating folders', () => {
    const p = policy(rules, { file: 'logs/deep/decisions.jsonl' });
    expect(recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now })).toEqual([]);
    expect(recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now })).toEqual([]);
    expect(lines('logs/deep/decisions.jsonl').map((r) => [r.outcome, r.rules])).toEqual([['deny', ['d1', 'd2']], ['deny', ['d1', 'd2']]]);
  });

  it('records only the categories log.record names', () => {
    const p = policy(rules, { record: ['none'] });
    recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now });
    expect(fs.existsSync(path.join(root, '.claude/decisions.jsonl'))).toBe(false);
    recordDecision({ decision: decision({}), event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now });
    expect(lines('.claude/decisions.jsonl').map((r) => r.outcome)).toEqual(['none']);
  });

  it('turns an unwritable log into a log-error warning', () => {
    fs.writeFileSync(path.join(root, 'blocker'), '');
    const p = policy(rules, { file: 'blocker/decisions.jsonl' });
    const problems = recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now });
    expect(problems.map((d) => [d.code, d.severity])).toEqual([['log-error', 'warning']]);
  });

  it('queues the record in the webhook spool and starts a detached sender only when none is alive, the destination in its environment', () => {
    const calls: unknown[][] = [];
    const fakeSpawn = ((...args: unknown[]) => {
      calls.push(args);
      const child = new EventEmitter() as EventEmitter & { unref: () => void };
      child.unref = () => undefined;
      return child;
    }) as never;
    const spool = path.join(root, 'spool');
    fs.mkdirSync(spool);
    const webhook = { url: 'http://127.0.0.1:1/hook', timeoutMs: 500, headers: { Authorization: 'Bearer t' } };
    const p = policy(rules, { file: null, webhook });
    const record = () => recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now, webhookSender: '/x/webhook-sender.cjs', spawn: fakeSpawn, spool });
    expect(record()).toEqual([]);
    expect(calls).toEqual([[process.execPath, ['/x/webhook-sender.cjs', spool], expect.objectContaining({ detached: true, stdio: ['ignore', 'ignore', 'ignore'] })]]);
    // Where it goes is the sender's to be told, from the policy; the spooled record says nothing of it.
    expect(JSON.parse((calls[0][2] as { env: Record<string, string> }).env[DESTINATION_VAR])).toEqual(webhook);
    const queued = fs.readdirSync(spool);
    expect(queued).toEqual([expect.stringMatching(/\.rec$/)]);
    const spooled = JSON.parse(fs.readFileSync(path.join(spool, queued[0]), 'utf8'));
    expect(Object.keys(spooled).sort()).toEqual(['id', 'record']);
    expect(spooled.record.rules).toEqual(['d1', 'd2']);
    expect(fs.existsSync(path.join(root, '.claude'))).toBe(false);
    // A sender holds the lock: the next record is queued, and no second sender starts.
    fs.writeFileSync(path.join(spool, 'sender.lock'), '1');
    expect(record()).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(fs.readdirSync(spool).filter((n) => n.endsWith('.rec'))).toHaveLength(2);
  });

  it('without a spool folder, hands the record to a sender of its own over a pipe', () => {
    const written: string[] = [];
    const calls: unknown[][] = [];
    const fakeSpawn = ((...args: unknown[]) => {
      calls.push(args);
      const child = new EventEmitter() as EventEmitter & { stdin: unknown; unref: () => void };
      child.stdin = Object.assign(new EventEmitter(), { end: (text: string) => written.push(text) });
      child.unref = () => undefined;
      return child;
    }) as never;
    const p = policy(rules, { file: null, webhook: { url: 'http://127.0.0.1:1/hook', timeoutMs: 500, headers: {} } });
    expect(recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now, webhookSender: '/x/s.cjs', spawn: fakeSpawn, spool: null })).toEqual([]);
    expect(calls).toEqual([[process.execPath, ['/x/s.cjs'], expect.objectContaining({ stdio: ['pipe', 'ignore', 'ignore'] })]]);
    expect(JSON.parse(written[0]).record.rules).toEqual(['d1', 'd2']);
  });

  it('the webhook\'s copy of a record carries the prev its log line was chained with', () => {
    const written: string[] = [];
    const fakeSpawn = (() => {
      const child = new EventEmitter() as EventEmitter & { stdin: unknown; unref: () => void };
      child.stdin = Object.assign(new EventEmitter(), { end: (text: string) => written.push(text) });
      child.unref = () => undefined;
      return child;
    }) as never;
    const p = policy(rules, { file: 'decisions.jsonl', webhook: { url: 'http://127.0.0.1:1/hook', timeoutMs: 500, headers: {} } });
    for (let i = 0; i < 2; i++) recordDecision({ decision: deny, event: { hook_event_name: 'PreToolUse' }, policy: p, projectRoot: root, now, webhookSender: '/x/s.cjs', spawn: fakeSpawn, spool: null });
    const logged = lines('decisions.jsonl').map((l) => l.prev);
    expect(logged[0]).toBe('0'.repeat(64));
    expect(logged[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(written.map((w) => JSON.parse(w).record.prev)).toEqual(logged);
  });
});

describe('webhookBody', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  const event = { hook_event_name: 'PreToolUse', session_id: 'sess-1', tool_name: 'Bash', cwd: '/p/app', tool_input: { command: 'DB_PASSWORD=hunter2 npm test' } };
  const record = buildDecisionRecord({ ...deny, paths: ['.env', 'b'] }, event, policy(rules), now);

  it('renders the API\'s shape over the decision (seed 004)', () => {
    const body = {
      status: 'denied', agentName: '{{agent}}', toolName: '{{tool}}', eventType: '{{event}}', summary: '{{reason}}',
      details: { rule: '{{rule}}', rules: '{{rules}}', files: ['{{path}}', '{{paths}}'], at: '{{time}}', session: '{{session}}', where: '{{project}} {{cwd}}', outcome: '{{outcome}}' },
      attempt: 1,
    };
    expect(webhookBody(body, record, event, '/p/app/', [])).toEqual({
      status: 'denied', agentName: 'ba', toolName: 'Write', eventType: 'PreToolUse', summary: 'msg d1\nmsg d2',
      details: { rule: 'd1', rules: 'd1, d2', files: ['.env', '.env, b'], at: '2026-01-02T03:04:05.000Z', session: 'sess-1', where: 'app /p/app', outcome: 'deny' },
      attempt: 1,
    });
  });

  it('redacts each value, what a template glues to it, and the team\'s own patterns', () => {
    const body = { plain: '{{command}}', glued: 'cmd={{command}}', ticket: 'see TICKET-1234 for {{agent}}' };
    expect(webhookBody(body, record, event, '/p', ['TICKET-\\d+'])).toEqual({
      plain: 'DB_PASSWORD=[REDACTED] npm test', glued: 'cmd=DB_PASSWORD=[REDACTED] npm test', ticket: 'see [REDACTED] for ba',
    });
  });

  it('is what recordDecision queues for the webhook: the rendered body and an id, no template and no destination', () => {
    const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-'));
    try {
      fs.writeFileSync(path.join(spool, 'sender.lock'), '1');
      const webhook = { url: 'http://127.0.0.1:1/hook', timeoutMs: 500, headers: {}, body: { status: 'denied', agentName: '{{agent}}', files: '{{paths}}' } };
      expect(recordDecision({ decision: { ...deny, paths: ['.env', 'b'] }, event, policy: policy(rules, { file: null, webhook }), projectRoot: spool, now, spool })).toEqual([]);
      const queued = fs.readdirSync(spool).filter((n) => n.endsWith('.rec'));
      const envelope = JSON.parse(fs.readFileSync(path.join(spool, queued[0]), 'utf8'));
      expect(envelope).toEqual({ record: { status: 'denied', agentName: 'ba', files: '.env, b' }, id: expect.stringMatching(/^[0-9a-z-]+$/) });
    } finally {
      fs.rmSync(spool, { recursive: true, force: true });
    }
  });
});
