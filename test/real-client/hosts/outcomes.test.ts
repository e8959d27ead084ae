/**
 * Host × event × outcome with the real binaries: for each case, one session with one rule
 * whose message is a marker. Each case asserts the effect (a file written or not, the
 * session going on or not) and records what the model and the user got of the message;
 * the table in docs/hosts/index.md ("Measured with the real clients") is generated from
 * these sightings: `UPDATE_DOCS=1 npx jest test/real-client/hosts/outcomes` rewrites it.
 */
import { expectGeneratedSection } from '../../support/doc-sections';
import { say, tools, type Scenario, type ToolCall } from '../scenario';
import { hostBinary, type HostName } from './binaries';
import { HOST_SESSION_TIMEOUT_MS, runHostCase, type HostCaseRun } from './suite';
import { codexSightings } from './wire-responses';
import { geminiSightings } from './wire-gemini';

interface OutcomeCase {
  event: string;
  outcome: string;
  /** The rule after `id:`/`on:`; MARK stands for the marker. */
  rule: string;
  /** The main script, given the host's shell tool. */
  scenario: (shell: (command: string) => ToolCall) => Scenario;
  /** The effect, as the table states it; `check` asserts it. */
  effect: string;
  check(run: HostCaseRun): void;
}

const runs = (command: string) => (shell: (c: string) => ToolCall): Scenario => ({ main: [tools(shell(command)), say('done')] });
const talks = (): Scenario => ({ main: [say('done')] });
const file = (name: string, written: boolean) => (run: HostCaseRun) => expect(run.project.exists(name)).toBe(written);

/** The cases, per host: the same rules, and the effect each host gives them. */
const CASES: Record<HostName, OutcomeCase[]> = {
  codex: [
    { event: 'PreToolUse', outcome: 'deny', rule: 'tools: Bash\n    paths: { deny: ["denied.txt"] }\n    deny: MARK', scenario: runs('touch denied.txt'), effect: 'the command does not run', check: file('denied.txt', false) },
    { event: 'PreToolUse', outcome: 'ask', rule: 'tools: Bash\n    paths: { deny: ["asked.txt"] }\n    ask: MARK', scenario: runs('touch asked.txt'), effect: 'denied instead: the command does not run', check: file('asked.txt', false) },
    { event: 'PreToolUse', outcome: 'allow', rule: 'tools: Bash\n    paths: { deny: ["allowed.txt"] }\n    allow: MARK', scenario: runs('touch allowed.txt'), effect: 'says nothing: Codex\'s own approval decides (the command runs)', check: file('allowed.txt', true) },
    { event: 'PreToolUse', outcome: 'warn', rule: 'tools: Bash\n    warn: MARK', scenario: runs('touch warned.txt'), effect: 'the command runs', check: file('warned.txt', true) },
    { event: 'PreToolUse', outcome: 'context', rule: 'tools: Bash\n    context: MARK', scenario: runs('touch context.txt'), effect: 'the command runs', check: file('context.txt', true) },
    { event: 'UserPromptSubmit', outcome: 'context', rule: 'context: MARK', scenario: talks, effect: 'beside the prompt', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main').length).toBeGreaterThan(0) },
    { event: 'UserPromptSubmit', outcome: 'block', rule: 'block: MARK', scenario: talks, effect: 'the model is never called', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main')).toHaveLength(0) },
    { event: 'SessionStart', outcome: 'context', rule: 'context: MARK', scenario: talks, effect: 'in the first request', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main').length).toBeGreaterThan(0) },
    { event: 'PostToolUse', outcome: 'block', rule: 'tools: Bash\n    block: MARK', scenario: runs('touch post.txt'), effect: 'the command already ran; the reason is fed back', check: file('post.txt', true) },
    { event: 'PostToolUse', outcome: 'context', rule: 'tools: Bash\n    context: MARK', scenario: runs('touch post.txt'), effect: 'the command already ran', check: file('post.txt', true) },
    { event: 'Stop', outcome: 'block', rule: 'match: { stop_hook_active: false }\n    block: MARK', scenario: () => ({ main: [say('first stop'), say('second stop')] }), effect: 'the model goes on; the next Stop (stop_hook_active) passes', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main')).toHaveLength(2) },
  ],
  gemini: [
    { event: 'PreToolUse', outcome: 'deny', rule: 'tools: Bash\n    paths: { deny: ["denied.txt"] }\n    deny: MARK', scenario: runs('touch denied.txt'), effect: 'the command does not run', check: file('denied.txt', false) },
    { event: 'PreToolUse', outcome: 'ask', rule: 'tools: Bash\n    paths: { deny: ["asked.txt"] }\n    ask: MARK', scenario: runs('touch asked.txt'), effect: 'denied instead (Gemini\'s own ask waits forever in a non-interactive session): the command does not run', check: file('asked.txt', false) },
    { event: 'PreToolUse', outcome: 'allow', rule: 'tools: Bash\n    paths: { deny: ["allowed.txt"] }\n    allow: MARK', scenario: runs('touch allowed.txt'), effect: 'says nothing: Gemini\'s own approval decides (the command runs under --yolo)', check: file('allowed.txt', true) },
    { event: 'PreToolUse', outcome: 'warn', rule: 'tools: Bash\n    warn: MARK', scenario: runs('touch warned.txt'), effect: 'the command runs', check: file('warned.txt', true) },
    { event: 'PreToolUse', outcome: 'context', rule: 'tools: Bash\n    context: MARK', scenario: runs('touch context.txt'), effect: 'the command runs (BeforeTool takes no context)', check: file('context.txt', true) },
    { event: 'UserPromptSubmit', outcome: 'context', rule: 'context: MARK', scenario: talks, effect: 'beside the prompt', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main').length).toBeGreaterThan(0) },
    { event: 'UserPromptSubmit', outcome: 'block', rule: 'block: MARK', scenario: talks, effect: 'the prompt is discarded: the model is never called', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main')).toHaveLength(0) },
    { event: 'SessionStart', outcome: 'context', rule: 'context: MARK', scenario: talks, effect: 'in the first request', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main').length).toBeGreaterThan(0) },
    { event: 'PostToolUse', outcome: 'block', rule: 'tools: Bash\n    block: MARK', scenario: runs('touch post.txt'), effect: 'the command already ran; its result is replaced by the reason', check: file('post.txt', true) },
    { event: 'PostToolUse', outcome: 'context', rule: 'tools: Bash\n    context: MARK', scenario: runs('touch post.txt'), effect: 'the command already ran', check: file('post.txt', true) },
    { event: 'Stop', outcome: 'block', rule: 'match: { stop_hook_active: false }\n    block: MARK', scenario: () => ({ main: [say('first stop'), say('second stop')] }), effect: 'the model goes on (AfterAgent retry); the next stop passes', check: (run) => expect(run.session.requests.filter((r) => r.script === 'main').length).toBeGreaterThanOrEqual(2) },
  ],
};

const SHELL: Record<HostName, (command: string) => ToolCall> = {
  codex: (cmd) => ({ name: 'exec_command', input: { cmd } }),
  gemini: (command) => ({ name: 'run_shell_command', input: { command } }),
};

interface Observed {
  host: HostName;
  c: OutcomeCase;
  model: Array<{ where: string; text: string }>;
  user: Array<{ where: string; text: string }>;
}

const observed: Observed[] = [];

function userSightings(run: HostCaseRun, marker: string): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = [];
  for (const [where, text] of [['stdout', run.session.stdout], ['stderr', run.session.stderr]] as const) {
    for (const line of text.split('\n').filter((l) => l.includes(marker))) {
      // Codex's log lines start with a timestamp: not the protocol, this run.
      const normal = line.trim().replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s+/, '');
      if (!out.some((o) => o.where === where && o.text === normal)) out.push({ where, text: normal });
    }
  }
  return out;
}

function cell(sightings: Array<{ where: string; text: string }>, marker: string): string {
  if (sightings.length === 0) return 'nothing';
  return sightings.map((s) => `${s.where}: \`${s.text.split(marker).join('<reason>').replace(/\|/g, '\\|').replace(/\/tmp\/hp-host-[^/ ]+\/project/g, '<project>')}\``).join('<br>');
}

const START = '<!-- hosts-table:start (generated by test/real-client/hosts/outcomes.test.ts; UPDATE_DOCS=1 npx jest test/real-client/hosts/outcomes) -->';
const END = '<!-- hosts-table:end -->';

function table(): string {
  const head = ['Host', 'Event (host\'s name)', 'Outcome', 'Effect', 'What the model reads', 'What the user is shown (non-interactive output)'];
  const hostEvent: Record<string, string> = { PreToolUse: 'BeforeTool', PostToolUse: 'AfterTool', UserPromptSubmit: 'BeforeAgent', Stop: 'AfterAgent', SessionStart: 'SessionStart' };
  const rows = observed.map(({ host, c, model, user }, i) => {
    const marker = markerOf(host, i);
    const title = host === 'codex' ? `Codex CLI ${hostBinary('codex').version}` : `Gemini CLI ${hostBinary('gemini').version}`;
    const event = host === 'gemini' ? `${c.event} (${hostEvent[c.event]})` : c.event;
    return `| ${title} | ${event} | ${c.outcome} | ${c.effect} | ${cell(model, marker)} | ${cell(user, marker)} |`;
  });
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows].join('\n');
}

function markerOf(host: HostName, index: number): string {
  return `HPMARK${host.toUpperCase()}${index}Z`;
}

const available = (['codex', 'gemini'] as const).filter((h) => !hostBinary(h).unavailable);

(available.length === 2 ? describe : describe.skip)('host × outcome with the real clients', () => {
  for (const host of ['codex', 'gemini'] as const) {
    CASES[host].forEach((c) => {
      it(`${host}: ${c.event} ${c.outcome}`, () => {
        const index = observed.length;
        const marker = markerOf(host, index);
        const policy = `version: 1\nrules:\n  - id: measured\n    on: ${c.event}\n    ${c.rule.replace('MARK', JSON.stringify(marker))}\n`;
        const run = runHostCase({ host, policy, scenario: c.scenario(SHELL[host]) });
        c.check(run);
        const model = host === 'codex' ? codexSightings(run.session.requests, marker) : geminiSightings(run.session.requests, marker);
        observed.push({ host, c, model, user: userSightings(run, marker) });
      }, HOST_SESSION_TIMEOUT_MS);
    });
  }

  it('docs/hosts/index.md holds the table these cases measured', () => {
    expect(observed).toHaveLength(CASES.codex.length + CASES.gemini.length);
    expectGeneratedSection('hosts/index.md', START, END, table());
  });
});
