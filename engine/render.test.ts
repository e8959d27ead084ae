import { diagnostic } from './diagnostics';
import { EVENT_NAMES } from './protocol';
import { renderFailure, renderResponse, type RenderOptions } from './render';
import { MESSAGE_LIMIT } from './render/messages';
import type { Decision, Diagnostic, FinalOutcome, HookResponse, Outcome, RuleHit } from './types';

// ---------------------------------------------------------------------------
// Helpers: a Decision built by hand from the rules that fired.

type Fired = [id: string, outcome: Outcome, message: string];

/** A decision as the evaluator would make it: deny/block beat ask beat allow; contexts and warnings accumulate. */
function decide(event: string, fired: Fired[] = [], errors: Diagnostic[] = []): Decision {
  const hits: RuleHit[] = fired.map(([id, outcome, message], i) => ({
    id, outcome, message, source: { file: 'policy.yaml', line: 10 + i, column: 3 },
  }));
  const rank: FinalOutcome[] = ['allow', 'ask', 'deny'];
  let outcome: FinalOutcome = 'none';
  for (const h of hits) {
    const o: FinalOutcome = h.outcome === 'block' ? 'deny' : (h.outcome as FinalOutcome);
    if (!rank.includes(o)) continue;
    const current = outcome === 'block' ? 'deny' : outcome;
    if (outcome === 'none' || rank.indexOf(o) > rank.indexOf(current)) outcome = h.outcome as FinalOutcome;
  }
  const decidedBy = hits.filter((h) => h.outcome === outcome);
  return {
    event,
    agent: null,
    tool: null,
    outcome,
    reason: decidedBy.length > 0 ? decidedBy.map((h) => h.message).join('\n') : null,
    decidedBy,
    hits,
    contexts: hits.filter((h) => h.outcome === 'context').map((h) => h.message),
    warnings: hits.filter((h) => h.outcome === 'warn').map((h) => h.message),
    trace: [],
    bypass: null,
    errors,
  };
}

interface Expected {
  /** Parsed stdout, or null for empty stdout. */
  json: Record<string, unknown> | null;
  /** Exact stderr (string) or substrings it must contain (array). */
  stderr: string | string[];
  exit: 0 | 2;
}

/** The output rules every response obeys, whatever the case. */
function checkShape(r: HookResponse): void {
  expect([0, 2]).toContain(r.exitCode);
  if (r.stdout !== '') {
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.slice(0, -1)).not.toContain('\n');
    const parsed: unknown = JSON.parse(r.stdout);
    expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  }
  if (r.exitCode === 2) expect(r.stdout).toBe('');
}

function check(r: HookResponse, want: Expected): void {
  checkShape(r);
  expect(r.stdout === '' ? null : JSON.parse(r.stdout)).toEqual(want.json);
  if (typeof want.stderr === 'string') expect(r.stderr).toBe(want.stderr);
  else for (const part of want.stderr) expect(r.stderr).toContain(part);
  expect(r.exitCode).toBe(want.exit);
}

const open: RenderOptions = { onError: 'open' };
const closed: RenderOptions = { onError: 'closed' };
const hso = (hookEventName: string, fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName, ...fields } });

// ---------------------------------------------------------------------------

describe('renderResponse', () => {
  const cases: Array<[string, Decision, Expected]> = [
    ['PreToolUse deny', decide('PreToolUse', [['r1', 'deny', 'no rm -rf']]),
      { json: hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' }), stderr: '', exit: 0 }],
    ['PreToolUse ask', decide('PreToolUse', [['r1', 'ask', 'push to main?']]),
      { json: hso('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'push to main?' }), stderr: '', exit: 0 }],
    ['PreToolUse allow', decide('PreToolUse', [['r1', 'allow', 'reads are fine']]),
      { json: hso('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'reads are fine' }), stderr: '', exit: 0 }],
    ['PreToolUse deny beats ask and allow, reasons of deny rules joined', decide('PreToolUse', [['a', 'allow', 'ok'], ['b', 'deny', 'one'], ['c', 'ask', 'sure?'], ['d', 'deny', 'two']]),
      { json: hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'one\ntwo' }), stderr: '', exit: 0 }],
    ['PreToolUse block is a deny', decide('PreToolUse', [['r1', 'block', 'stop']]),
      { json: hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'stop' }), stderr: '', exit: 0 }],
    ['PreToolUse contexts only: no permission decision', decide('PreToolUse', [['c1', 'context', 'first'], ['c2', 'context', 'second']]),
      { json: hso('PreToolUse', { additionalContext: 'first\n\nsecond' }), stderr: '', exit: 0 }],
    ['PreToolUse warn', decide('PreToolUse', [['w1', 'warn', 'careful'], ['w2', 'warn', 'really']]),
      { json: { systemMessage: 'careful\nreally' }, stderr: '', exit: 0 }],
    ['PreToolUse deny + context + warn', decide('PreToolUse', [['r1', 'deny', 'no'], ['c1', 'context', 'ctx'], ['w1', 'warn', 'heads up']]),
      { json: { systemMessage: 'heads up', ...hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no', additionalContext: 'ctx' }) }, stderr: '', exit: 0 }],
    ['PermissionRequest deny', decide('PermissionRequest', [['r1', 'deny', 'not here']]),
      { json: hso('PermissionRequest', { decision: { behavior: 'deny', message: 'not here' } }), stderr: '', exit: 0 }],
    ['PermissionRequest allow', decide('PermissionRequest', [['r1', 'allow', 'fine']]),
      { json: hso('PermissionRequest', { decision: { behavior: 'allow' } }), stderr: '', exit: 0 }],
    ['PermissionRequest ask cannot be expressed', decide('PermissionRequest', [['r1', 'ask', 'sure?']]),
      { json: { systemMessage: 'hookpolicy: rule r1: ask is not supported on PermissionRequest, so it was not applied' },
        stderr: 'hookpolicy: rule r1: ask is not supported on PermissionRequest, so it was not applied\n', exit: 0 }],
    ['PermissionRequest block is a behavior deny', decide('PermissionRequest', [['r1', 'block', 'no']]),
      { json: hso('PermissionRequest', { decision: { behavior: 'deny', message: 'no' } }), stderr: '', exit: 0 }],
    ['Stop block + context', decide('Stop', [['b1', 'block', 'tests fail'], ['c1', 'context', 'run npm test']]),
      { json: { decision: 'block', reason: 'tests fail', ...hso('Stop', { additionalContext: 'run npm test' }) }, stderr: '', exit: 0 }],
    ['Stop deny is not supported (hint: block)', decide('Stop', [['d1', 'deny', 'no']]),
      { json: { systemMessage: 'hookpolicy: rule d1: deny is not supported on Stop, so it was not applied (use block)' }, stderr: ['rule d1: deny is not supported on Stop'], exit: 0 }],
    ['Stop allow is not supported, never emitted', decide('Stop', [['a1', 'allow', 'ok']]),
      { json: { systemMessage: 'hookpolicy: rule a1: allow is not supported on Stop, so it was not applied' }, stderr: ['rule a1: allow'], exit: 0 }],
    ['SubagentStop block', decide('SubagentStop', [['b1', 'block', 'write the report first']]),
      { json: { decision: 'block', reason: 'write the report first' }, stderr: '', exit: 0 }],
    ['TeammateIdle block: exit 2, reason on stderr', decide('TeammateIdle', [['b1', 'block', 'keep going']]),
      { json: null, stderr: 'keep going\n', exit: 2 }],
    ['TeammateIdle block + warn: reason first on stderr', decide('TeammateIdle', [['w1', 'warn', 'fyi'], ['b1', 'block', 'keep going']]),
      { json: null, stderr: 'keep going\nfyi\n', exit: 2 }],
    ['TaskCompleted block', decide('TaskCompleted', [['b1', 'block', 'tests missing']]),
      { json: null, stderr: 'tests missing\n', exit: 2 }],
    ['WorktreeRemove block', decide('WorktreeRemove', [['b1', 'block', 'keep it']]),
      { json: null, stderr: 'keep it\n', exit: 2 }],
    ['UserPromptSubmit block', decide('UserPromptSubmit', [['b1', 'block', 'no secrets in prompts']]),
      { json: { decision: 'block', reason: 'no secrets in prompts' }, stderr: '', exit: 0 }],
    ['UserPromptSubmit context', decide('UserPromptSubmit', [['c1', 'context', 'team rules: ...']]),
      { json: hso('UserPromptSubmit', { additionalContext: 'team rules: ...' }), stderr: '', exit: 0 }],
    ['SessionStart context', decide('SessionStart', [['c1', 'context', 'read CLAUDE.md']]),
      { json: hso('SessionStart', { additionalContext: 'read CLAUDE.md' }), stderr: '', exit: 0 }],
    ['SubagentStart context', decide('SubagentStart', [['c1', 'context', 'you are murdock']]),
      { json: hso('SubagentStart', { additionalContext: 'you are murdock' }), stderr: '', exit: 0 }],
    ['SubagentStart block is not supported', decide('SubagentStart', [['b1', 'block', 'no']]),
      { json: { systemMessage: 'hookpolicy: rule b1: block is not supported on SubagentStart, so it was not applied' },
        stderr: 'hookpolicy: rule b1: block is not supported on SubagentStart, so it was not applied\n', exit: 0 }],
    ['PostToolUse deny is not supported', decide('PostToolUse', [['d1', 'deny', 'too late']]),
      { json: { systemMessage: 'hookpolicy: rule d1: deny is not supported on PostToolUse, so it was not applied (use block)' },
        stderr: ['rule d1: deny is not supported on PostToolUse'], exit: 0 }],
    ['PostToolUse block', decide('PostToolUse', [['b1', 'block', 'lint failed']]),
      { json: { decision: 'block', reason: 'lint failed' }, stderr: '', exit: 0 }],
    ['PostToolUse context', decide('PostToolUse', [['c1', 'context', 'file changed']]),
      { json: hso('PostToolUse', { additionalContext: 'file changed' }), stderr: '', exit: 0 }],
    ['Notification warn: nowhere to show, stderr only', decide('Notification', [['w1', 'warn', 'careful']]),
      { json: null, stderr: 'careful\nhookpolicy: rule w1: warn cannot be shown on Notification; it went to stderr only\n', exit: 0 }],
    ['Notification context cannot reach the model', decide('Notification', [['c1', 'context', 'x']]),
      { json: null, stderr: 'hookpolicy: rule c1: context cannot reach the model on Notification\n', exit: 0 }],
    ['TaskCreated context cannot reach the model, said via systemMessage', decide('TaskCreated', [['c1', 'context', 'x']]),
      { json: { systemMessage: 'hookpolicy: rule c1: context cannot reach the model on TaskCreated' }, stderr: ['context cannot reach the model on TaskCreated'], exit: 0 }],
    ['SessionEnd discards JSON: warn goes to stderr', decide('SessionEnd', [['w1', 'warn', 'bye']]),
      { json: null, stderr: ['bye\n'], exit: 0 }],
    ['PreModelSwitch deny', decide('PreModelSwitch', [['r1', 'deny', 'stay on sonnet']]),
      { json: hso('PreModelSwitch', { permissionDecision: 'deny', permissionDecisionReason: 'stay on sonnet' }), stderr: '', exit: 0 }],
    ['PreModelSwitch block is a deny', decide('PreModelSwitch', [['r1', 'block', 'no']]),
      { json: hso('PreModelSwitch', { permissionDecision: 'deny', permissionDecisionReason: 'no' }), stderr: '', exit: 0 }],
    ['PreToolUse none', decide('PreToolUse'), { json: null, stderr: '', exit: 0 }],
  ];

  it.each(cases)('%s', (_name, decision, want) => {
    check(renderResponse(decision, open), want);
  });

  it.each(EVENT_NAMES.map((e) => [e]))('%s with nothing to say: empty output, exit 0', (event) => {
    expect(renderResponse(decide(event), open)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(renderResponse(decide(event), closed)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('renderResponse with runtime errors', () => {
  const boom = diagnostic('expression-error', 'boom', { file: 'policies.yaml', line: 12, column: 5 });
  const problem = 'hookpolicy: policies.yaml:12:5: error expression-error: boom';

  const cases: Array<[string, Decision, RenderOptions, Expected]> = [
    ['open: the rest of the decision stands, the error is visible', decide('PreToolUse', [['a1', 'allow', 'ok']], [boom]), open,
      { json: { systemMessage: `${problem} (failing open)`, ...hso('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'ok' }) },
        stderr: `${problem} (failing open)\n`, exit: 0 }],
    ['open on an event without systemMessage: stderr only', decide('Notification', [], [boom]), open,
      { json: null, stderr: `${problem} (failing open)\n`, exit: 0 }],
    ['closed: an allow becomes a deny naming the problem', decide('PreToolUse', [['a1', 'allow', 'ok']], [boom]), closed,
      { json: { systemMessage: `${problem} (failing closed)`, ...hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: `${problem} (failing closed)` }) },
        stderr: `${problem} (failing closed)\n`, exit: 0 }],
    ['closed: a deny keeps its reason and adds the problem', decide('PreToolUse', [['d1', 'deny', 'no']], [boom]), closed,
      { json: { systemMessage: `${problem} (failing closed)`, ...hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: `no\n${problem} (failing closed)` }) },
        stderr: `${problem} (failing closed)\n`, exit: 0 }],
    ['closed on PermissionRequest: behavior deny', decide('PermissionRequest', [], [boom]), closed,
      { json: { systemMessage: `${problem} (failing closed)`, ...hso('PermissionRequest', { decision: { behavior: 'deny', message: `${problem} (failing closed)` } }) },
        stderr: [problem], exit: 0 }],
    ['closed on Stop: block, contexts kept', decide('Stop', [['c1', 'context', 'ctx']], [boom]), closed,
      { json: { decision: 'block', reason: `${problem} (failing closed)`, systemMessage: `${problem} (failing closed)`, ...hso('Stop', { additionalContext: 'ctx' }) },
        stderr: [problem], exit: 0 }],
    ['closed on TeammateIdle: exit 2', decide('TeammateIdle', [], [boom]), closed,
      { json: null, stderr: `${problem} (failing closed)\n`, exit: 2 }],
    ['closed on SessionStart: cannot block, says so', decide('SessionStart', [['c1', 'context', 'ctx']], [boom]), closed,
      { json: { systemMessage: `${problem} (failing closed, but SessionStart cannot be blocked)`, ...hso('SessionStart', { additionalContext: 'ctx' }) },
        stderr: `${problem} (failing closed, but SessionStart cannot be blocked)\n`, exit: 0 }],
    ['info diagnostics produce no output', decide('Bogus', [], [diagnostic('event-unknown', 'unknown event Bogus')]), closed,
      { json: null, stderr: '', exit: 0 }],
    ['warning diagnostics are shown but change nothing', decide('PreToolUse', [['d1', 'deny', 'no']], [diagnostic('log-error', 'disk full')]), closed,
      { json: { systemMessage: 'hookpolicy: warning log-error: disk full', ...hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no' }) },
        stderr: 'hookpolicy: warning log-error: disk full\n', exit: 0 }],
  ];

  it.each(cases)('%s', (_name, decision, options, want) => {
    check(renderResponse(decision, options), want);
  });
});

describe('renderFailure', () => {
  const bad = [diagnostic('event-malformed', 'stdin is not JSON')];
  const text = 'hookpolicy: error event-malformed: stdin is not JSON';
  const openMsg = `${text} (failing open: the event was not checked)`;
  const closedMsg = `${text} (failing closed: the event was not checked)`;

  const cases: Array<[string | null, 'open' | 'closed', Expected]> = [
    [null, 'open', { json: { systemMessage: openMsg }, stderr: `${openMsg}\n`, exit: 0 }],
    [null, 'closed', { json: { systemMessage: `${text} (failing closed, but an unreadable event cannot be blocked: the event was not checked)` },
      stderr: ['cannot be blocked'], exit: 0 }],
    ['PreToolUse', 'open', { json: { systemMessage: openMsg }, stderr: `${openMsg}\n`, exit: 0 }],
    ['PreToolUse', 'closed', { json: { systemMessage: closedMsg, ...hso('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: closedMsg }) },
      stderr: `${closedMsg}\n`, exit: 0 }],
    ['PermissionRequest', 'closed', { json: { systemMessage: closedMsg, ...hso('PermissionRequest', { decision: { behavior: 'deny', message: closedMsg } }) },
      stderr: `${closedMsg}\n`, exit: 0 }],
    ['Stop', 'open', { json: { systemMessage: openMsg }, stderr: `${openMsg}\n`, exit: 0 }],
    ['Stop', 'closed', { json: { decision: 'block', reason: closedMsg, systemMessage: closedMsg }, stderr: `${closedMsg}\n`, exit: 0 }],
    ['TeammateIdle', 'open', { json: { systemMessage: openMsg }, stderr: `${openMsg}\n`, exit: 0 }],
    ['TeammateIdle', 'closed', { json: null, stderr: `${closedMsg}\n`, exit: 2 }],
    ['SessionStart', 'open', { json: { systemMessage: openMsg }, stderr: `${openMsg}\n`, exit: 0 }],
    ['SessionStart', 'closed', { json: { systemMessage: `${text} (failing closed, but SessionStart cannot be blocked: the event was not checked)` },
      stderr: [`${text} (failing closed, but SessionStart cannot be blocked`], exit: 0 }],
    ['Notification', 'open', { json: null, stderr: `${openMsg}\n`, exit: 0 }],
    ['SessionEnd', 'closed', { json: null, stderr: ['cannot be blocked'], exit: 0 }],
  ];

  it.each(cases)('%s, on_error %s', (event, mode, want) => {
    check(renderFailure(event, bad, mode), want);
  });

  it('names file:line:col of each problem', () => {
    const problems = [
      diagnostic('deadline-exceeded', 'took 6000 ms', { file: 'p.yaml', line: 3, column: 7 }),
      diagnostic('fact-error', 'cannot read x', { file: 'q.yaml', line: 9, column: 1 }),
    ];
    const r = renderFailure('PreToolUse', problems, 'open');
    expect(r.stderr).toBe('hookpolicy: p.yaml:3:7: error deadline-exceeded: took 6000 ms; q.yaml:9:1: error fact-error: cannot read x (failing open: the event was not checked)\n');
  });

  it('says nothing for info diagnostics only', () => {
    expect(renderFailure('Bogus', [diagnostic('event-unknown', 'unknown')], 'closed')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('message cap', () => {
  const long = 'x'.repeat(MESSAGE_LIMIT * 2);

  it('cuts a deny reason to 10,000 characters with a marker', () => {
    const r = renderResponse(decide('PreToolUse', [['d1', 'deny', long]]), open);
    checkShape(r);
    const reason: string = JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason;
    expect(reason).toHaveLength(MESSAGE_LIMIT);
    expect(reason).toMatch(/cut by hookpolicy/);
    expect(reason.startsWith('xxxx')).toBe(true);
  });

  it('cuts contexts, warnings and block reasons', () => {
    const r = renderResponse(decide('Stop', [['b1', 'block', long], ['c1', 'context', long], ['w1', 'warn', long]]), open);
    const out = JSON.parse(r.stdout);
    expect(out.reason).toHaveLength(MESSAGE_LIMIT);
    expect(out.hookSpecificOutput.additionalContext).toHaveLength(MESSAGE_LIMIT);
    expect(out.systemMessage).toHaveLength(MESSAGE_LIMIT);
  });

  it('cuts an exit-2 reason on stderr', () => {
    const r = renderResponse(decide('TeammateIdle', [['b1', 'block', long]]), open);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toHaveLength(MESSAGE_LIMIT + 1);
    expect(r.stderr).toMatch(/cut by hookpolicy: message longer than 10000 characters\]\n$/);
  });

  it('leaves a message of exactly 10,000 characters alone', () => {
    const exact = 'y'.repeat(MESSAGE_LIMIT);
    const r = renderResponse(decide('Stop', [['b1', 'block', exact]]), open);
    expect(JSON.parse(r.stdout).reason).toBe(exact);
  });
});
