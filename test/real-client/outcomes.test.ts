/**
 * Event × outcome in the real client: for each case, one headless session with one rule
 * whose message is a marker. Each case asserts the effect (on disk, or on the
 * conversation), and what the model and the user got of the message. The table in
 * docs/events.md ("Measured with the real client") is generated from these sightings;
 * `UPDATE_DOCS=1 npx jest test/real-client/outcomes` rewrites it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectGeneratedSection } from '../support/doc-sections';
import { describeSightings, modelSightings, userSightings, type Sighting } from './observe';
import { say, tools, type Scenario } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS, type CaseRun } from './suite';
import { requestsOf } from './transcript';

interface OutcomeCase {
  event: string;
  outcome: string;
  /** The rule, after `id:`/`on:`; MARK stands for the marker. */
  rule: string;
  scenario: (dir: string) => Scenario;
  prompt?: string;
  permissionMode?: 'default' | 'bypassPermissions';
  files?: Record<string, string>;
  /** Whose requests show the model's side: 'main' or a subagent's marker. */
  reader?: string;
  /** The effect, as the docs table states it; `check` asserts it. */
  effect: string;
  check(run: CaseRun, dir: string, marker: string): void;
}

const write = (file: string) => (dir: string) => ({ name: 'Write', input: { file_path: path.join(dir, file), content: 'written\n' } });
const one = (call: (dir: string) => { name: string; input: Record<string, unknown> }) => (dir: string): Scenario => ({ main: [tools(call(dir)), say('done')] });
const bash = (command: string) => () => ({ name: 'Bash', input: { command } });
const exists = (dir: string, file: string) => fs.existsSync(path.join(dir, file));

const SUBAGENT = { '.claude/agents/helper.md': '---\nname: helper\ndescription: Does one scripted step.\ntools: Read, Write, Bash\n---\nYou help.\n' };
const spawnHelper = (turns: Scenario['main']) => (): Scenario => ({
  main: [tools({ name: 'Agent', input: { description: 'helper', prompt: 'SUBAGENT-HELPER: do it', subagent_type: 'helper', run_in_background: false } }), say('done')],
  subagents: [{ marker: 'SUBAGENT-HELPER', turns }],
});

const CASES: OutcomeCase[] = [
  {
    event: 'PreToolUse', outcome: 'deny', rule: 'tools: Write\n    deny: MARK',
    scenario: one(write('denied.txt')), effect: 'the tool does not run',
    check: (_, dir) => expect(exists(dir, 'denied.txt')).toBe(false),
  },
  {
    event: 'PreToolUse', outcome: 'deny (Bash, parsed write)', rule: 'tools: Bash\n    paths: { deny: ["locked/**"] }\n    deny: MARK',
    scenario: one(bash('mkdir -p locked && echo pwned > locked/a.txt')), effect: 'the command does not run',
    check: (_, dir) => expect(exists(dir, 'locked')).toBe(false),
  },
  {
    event: 'PreToolUse', outcome: 'ask (headless -p)', rule: 'tools: Write\n    ask: MARK',
    scenario: one(write('asked.txt')), effect: 'refused: no one is asked under -p',
    check: (_, dir) => expect(exists(dir, 'asked.txt')).toBe(false),
  },
  {
    event: 'PreToolUse', outcome: 'allow (default mode)', rule: 'tools: Write\n    paths: { deny: ["allowed.txt"] }\n    allow: MARK',
    permissionMode: 'default',
    scenario: (dir) => ({ main: [tools(write('allowed.txt')(dir)), tools(write('not-allowed.txt')(dir)), say('done')] }),
    effect: 'runs without a permission dialog (the same Write elsewhere is refused under -p)',
    check: (_, dir) => {
      expect(exists(dir, 'allowed.txt')).toBe(true);
      expect(exists(dir, 'not-allowed.txt')).toBe(false);
    },
  },
  {
    event: 'PreToolUse', outcome: 'warn', rule: 'tools: Write\n    warn: MARK',
    scenario: one(write('warned.txt')), effect: 'the tool runs',
    check: (_, dir) => expect(exists(dir, 'warned.txt')).toBe(true),
  },
  {
    event: 'PreToolUse', outcome: 'warn, call then refused by the permission step', rule: 'tools: Write\n    warn: MARK',
    permissionMode: 'default', scenario: one(write('refused.txt')), effect: 'the tool does not run',
    check: (_, dir) => expect(exists(dir, 'refused.txt')).toBe(false),
  },
  {
    event: 'PreToolUse', outcome: 'context', rule: 'tools: Write\n    context: MARK',
    scenario: one(write('context.txt')), effect: 'the tool runs',
    check: (_, dir) => expect(exists(dir, 'context.txt')).toBe(true),
  },
  {
    event: 'SessionStart', outcome: 'context', rule: 'context: MARK',
    scenario: () => ({ main: [say('done')] }), effect: 'in the first request',
    check: ({ session }) => expect(requestsOf(session.requests, 'main')).toHaveLength(1),
  },
  {
    event: 'SessionStart', outcome: 'warn', rule: 'warn: MARK',
    scenario: () => ({ main: [say('done')] }), effect: 'the session goes on',
    check: ({ session }) => expect(requestsOf(session.requests, 'main')).toHaveLength(1),
  },
  {
    event: 'UserPromptSubmit', outcome: 'context', rule: 'context: MARK',
    scenario: () => ({ main: [say('done')] }), effect: 'beside the prompt',
    check: ({ session }) => expect(requestsOf(session.requests, 'main')).toHaveLength(1),
  },
  {
    event: 'UserPromptSubmit', outcome: 'block', rule: 'block: MARK',
    scenario: () => ({ main: [say('done')] }), effect: 'the model is never called',
    check: ({ session }) => expect(requestsOf(session.requests, 'main')).toHaveLength(0),
  },
  {
    event: 'PostToolUse', outcome: 'block', rule: 'tools: Write\n    block: MARK',
    scenario: one(write('post.txt')), effect: 'the tool already ran; the reason is fed back',
    check: (_, dir) => expect(exists(dir, 'post.txt')).toBe(true),
  },
  {
    event: 'PostToolUse', outcome: 'context', rule: 'tools: Write\n    context: MARK',
    scenario: one(write('post.txt')), effect: 'the tool already ran',
    check: (_, dir) => expect(exists(dir, 'post.txt')).toBe(true),
  },
  {
    event: 'PostToolUseFailure', outcome: 'context', rule: 'tools: Bash\n    context: MARK',
    scenario: one(bash('exit 3')), effect: 'beside the failed result',
    check: ({ session }) => expect(requestsOf(session.requests, 'main')).toHaveLength(2),
  },
  {
    event: 'Stop', outcome: 'block', rule: 'match: { stop_hook_active: false }\n    block: MARK',
    scenario: () => ({ main: [say('first stop'), say('second stop')] }),
    effect: 'Claude continues; the next Stop (stop_hook_active) passes',
    check: ({ session, payloads }) => {
      expect(requestsOf(session.requests, 'main')).toHaveLength(2);
      const stops = payloads.filter((p) => p.hook_event_name === 'Stop').map((p) => p.stop_hook_active);
      expect(stops).toEqual([false, true]);
      expect(session.exitCode).toBe(0);
    },
  },
  {
    event: 'SubagentStart', outcome: 'context', rule: 'context: MARK', files: SUBAGENT, reader: 'SUBAGENT-HELPER',
    scenario: spawnHelper([say('helped')]), effect: 'in the subagent\'s first request, not the main session\'s',
    check: ({ session }, _, marker) => expect(modelSightings(session.requests, marker, 'main')).toEqual([]),
  },
  {
    event: 'SubagentStop', outcome: 'block', rule: 'match: { stop_hook_active: false }\n    block: MARK', files: SUBAGENT, reader: 'SUBAGENT-HELPER',
    scenario: spawnHelper([say('first stop'), say('second stop')]), effect: 'the subagent continues; its next stop passes',
    check: ({ session }) => expect(requestsOf(session.requests, 'SUBAGENT-HELPER')).toHaveLength(2),
  },
  {
    event: 'PermissionRequest', outcome: 'allow (default mode)', rule: 'tools: Bash\n    command: ["^touch granted"]\n    allow: MARK',
    permissionMode: 'default', scenario: one(bash('touch granted')), effect: 'the dialog is answered: the command runs',
    check: (_, dir) => expect(exists(dir, 'granted')).toBe(true),
  },
  {
    event: 'PermissionRequest', outcome: 'deny (default mode)', rule: 'tools: Bash\n    command: ["^touch refused"]\n    deny: MARK',
    permissionMode: 'default', scenario: one(bash('touch refused')), effect: 'the command does not run',
    check: (_, dir) => expect(exists(dir, 'refused')).toBe(false),
  },
];

interface Observed {
  c: OutcomeCase;
  model: Sighting[];
  user: Sighting[];
}

const observed: Observed[] = [];

function markerOf(index: number): string {
  return `HPMARK${index}Z`;
}

function policyFor(c: OutcomeCase, marker: string): string {
  return `version: 1\nrules:\n  - id: measured\n    on: ${c.event}\n    ${c.rule.replace('MARK', JSON.stringify(marker))}\n`;
}

const START = '<!-- real-client-table:start (generated by test/real-client/outcomes.test.ts; UPDATE_DOCS=1 npx jest test/real-client/outcomes) -->';
const END = '<!-- real-client-table:end -->';

function measuredTable(): string {
  const head = ['Event', 'Outcome', 'Effect', 'What the model reads', 'What the user is shown (stream-json)'];
  const rows = observed.map(({ c, model, user }) => `| ${c.event} | ${c.outcome} | ${c.effect} | ${describeSightings(model)} | ${describeSightings(user)} |`);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows].join('\n');
}

describeRealClient('event × outcome', () => {
  CASES.forEach((c, index) => {
    it(`${c.event} ${c.outcome}: ${c.effect}`, () => {
      const marker = markerOf(index);
      const run = runCase({
        policy: policyFor(c, marker),
        files: c.files,
        permissionMode: c.permissionMode,
        prompt: c.prompt,
        scenario: c.scenario,
      });
      const decided = fs.readFileSync(path.join(run.project.projectDir, '.claude', 'settings.json'), 'utf8');
      expect(decided).toContain(`"${c.event}"`); // init registered the runner for this event
      c.check(run, run.project.projectDir, marker);
      const model = modelSightings(run.session.requests, marker, c.reader ?? 'main');
      const user = userSightings(run.session.messages, marker);
      observed.push({ c, model, user });
    }, SESSION_TIMEOUT_MS);
  });

  it('docs/events.md holds the table these cases measured', () => {
    expect(observed).toHaveLength(CASES.length);
    expectGeneratedSection('events.md', START, END, measuredTable());
  });
});
