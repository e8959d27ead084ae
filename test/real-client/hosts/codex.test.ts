/**
 * The real Codex CLI (the pinned `@openai/codex`), offline against the scripted model, in
 * a project initialised with `policy init --host codex`: the same lanes as under Claude
 * Code, in the main session and in a subagent named by its agent_type.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say, tools, type Scenario } from '../scenario';
import { describeHost, HOST_SESSION_TIMEOUT_MS, runHostCase } from './suite';
import { codexRequestText, codexToolOutput } from './wire-responses';

const shell = (cmd: string) => ({ name: 'exec_command', input: { cmd } });
const spawnAgent = (agentType: string, message: string) => ({ name: 'spawn_agent', namespace: 'multi_agent_v1', input: { message, agent_type: agentType } });
const waitAgent = { name: 'wait_agent', namespace: 'multi_agent_v1', input: { targets: ['$AGENT_ID'], timeout_ms: 60_000 } };

const LANES = `version: 1
agents: { main: lead, roles: { reviewers: [reviewer] } }
rules:
  - id: no-pwned
    on: PreToolUse
    tools: Bash|Write|Edit
    paths: { deny: ["PWNED*"] }
    deny: "HPDENY-PWNED: no PWNED files."
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Bash|Write|Edit
    agents: reviewers
    paths: { deny: ["**"] }
    deny: "HPDENY-REVIEWER: {{agent}} writes nothing; report {{path}} instead."
  - id: prompt-context
    on: UserPromptSubmit
    context: "HPCONTEXT-PROMPT: the build command is make ci."
`;

describeHost('codex', 'policy lanes under Codex CLI', () => {
  it('denies a Bash write in the main session; the model reads the reason', () => {
    const scenario: Scenario = { main: [tools(shell('touch PWNED.txt')), say('done')] };
    const { project, session } = runHostCase({ host: 'codex', policy: LANES, scenario });
    expect(project.exists('PWNED.txt')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_m_0_0')).toContain('HPDENY-PWNED: no PWNED files.');
  }, HOST_SESSION_TIMEOUT_MS);

  it('denies a subagent\'s write by its per-agent lane, and lets the main session write', () => {
    const scenario: Scenario = {
      main: [tools(spawnAgent('reviewer', 'SUBAGENT-REVIEWER: note it')), tools(waitAgent), tools(shell('touch main-notes.txt')), say('done')],
      subagents: [{ marker: 'SUBAGENT-REVIEWER', turns: [tools(shell('touch review-notes.txt')), say('reviewed')] }],
    };
    const { project, session } = runHostCase({ host: 'codex', policy: LANES, scenario, codexAgents: ['reviewer'] });
    expect(project.exists('review-notes.txt')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_s0_0_0')).toContain('HPDENY-REVIEWER: reviewer writes nothing; report review-notes.txt instead.');
    expect(project.exists('main-notes.txt')).toBe(true);
  }, HOST_SESSION_TIMEOUT_MS);

  it('keeps the session going until a Stop requirement holds', () => {
    const policy = `version: 1
rules:
  - id: notes-first
    on: Stop
    require: [{ file: NOTES.md, min_bytes: 5 }]
    block: "HPBLOCK-STOP: write NOTES.md before you stop."
`;
    const scenario: Scenario = { main: [say('first stop'), tools(shell('echo "done: all" > NOTES.md')), say('second stop')] };
    const { project, session } = runHostCase({ host: 'codex', policy, scenario });
    expect(project.exists('NOTES.md')).toBe(true);
    const main = session.requests.filter((r) => r.script === 'main');
    expect(main.map((r) => r.turn)).toEqual([0, 1, 2]);
    expect(codexRequestText(main[1])).toContain('HPBLOCK-STOP: write NOTES.md before you stop.');
  }, HOST_SESSION_TIMEOUT_MS);

  it('skips hooks it has not trusted without a word, and policy init --check says so', () => {
    const scenario: Scenario = { main: [tools(shell('touch PWNED.txt')), say('done')] };
    const { project } = runHostCase({
      host: 'codex', policy: LANES, scenario,
      // The user never trusted the hooks: their config holds no trust for them.
      beforeSession: (p) => {
        const file = path.join(p.homeDir, '.codex', 'config.toml');
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\[hooks\.state\.[^\n]*\]\ntrusted_hash = "[^"]*"\n/g, ''));
      },
    });
    expect(project.exists('PWNED.txt')).toBe(true);
    const check = project.policy('init', '--check', '--host', 'codex');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('drift: Codex CLI: PreToolUse hook is not trusted: Codex skips it without a word');
  }, HOST_SESSION_TIMEOUT_MS);

  it('gives the model a context rule\'s text', () => {
    const { session } = runHostCase({ host: 'codex', policy: LANES, scenario: { main: [say('done')] } });
    const main = session.requests.filter((r) => r.script === 'main');
    expect(main.some((r) => codexRequestText(r).includes('HPCONTEXT-PROMPT: the build command is make ci.'))).toBe(true);
  }, HOST_SESSION_TIMEOUT_MS);
});
