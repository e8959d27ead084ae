/**
 * The real Gemini CLI (the pinned `@google/gemini-cli`), offline against the scripted
 * model, in a project initialised with `policy init --host gemini`. Gemini's events name no
 * acting agent: rules that name agents are set aside visibly there.
 */
import { say, tools, type Scenario } from '../scenario';
import { describeHost, HOST_SESSION_TIMEOUT_MS, runHostCase } from './suite';
import { geminiRequestText, geminiToolOutput } from './wire-gemini';

const shell = (command: string) => ({ name: 'run_shell_command', input: { command } });

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
    deny: "HPDENY-REVIEWER: {{agent}} writes nothing."
  - id: prompt-context
    on: UserPromptSubmit
    context: "HPCONTEXT-PROMPT: the build command is make ci."
`;

describeHost('gemini', 'policy lanes under Gemini CLI', () => {
  it('denies a run_shell_command write; the model reads the reason; the lane it cannot apply is said', () => {
    const scenario: Scenario = { main: [tools(shell('touch PWNED.txt')), tools(shell('touch notes.txt')), say('done')] };
    const { project, session } = runHostCase({ host: 'gemini', policy: LANES, scenario });
    expect(project.exists('PWNED.txt')).toBe(false);
    expect(geminiToolOutput(session.requests, 'run_shell_command', 0)).toContain('Tool execution blocked: HPDENY-PWNED: no PWNED files.');
    // Nobody is named: the reviewer's lane neither blocks the write nor passes in silence.
    expect(project.exists('notes.txt')).toBe(true);
    expect(`${session.stdout}\n${session.stderr}`).toContain('rule "reviewer-writes-nothing" names agents (reviewer), and Gemini CLI names no acting agent');
  }, HOST_SESSION_TIMEOUT_MS);

  it('gives the model a context rule\'s text', () => {
    const { session } = runHostCase({ host: 'gemini', policy: LANES, scenario: { main: [say('done')] } });
    expect(session.requests.filter((r) => r.script === 'main').some((r) => geminiRequestText(r).includes('HPCONTEXT-PROMPT: the build command is make ci.'))).toBe(true);
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
    const { project, session } = runHostCase({ host: 'gemini', policy, scenario });
    expect(project.exists('NOTES.md')).toBe(true);
    const main = session.requests.filter((r) => r.script === 'main');
    expect(main.some((r) => geminiRequestText(r).includes('HPBLOCK-STOP: write NOTES.md before you stop.'))).toBe(true);
  }, HOST_SESSION_TIMEOUT_MS);

  // Headless, Gemini refuses to start in a folder it does not trust; with --skip-trust it
  // runs there, reading no project settings: the hooks are skipped without a word.
  it('skips the project\'s hooks in a folder it does not trust (--skip-trust), and policy init --check says so', () => {
    const scenario: Scenario = { main: [tools(shell('touch PWNED.txt')), say('done')] };
    const { project } = runHostCase({ host: 'gemini', policy: LANES, scenario, trust: false, args: ['--skip-trust'] });
    expect(project.exists('PWNED.txt')).toBe(true);
    const check = project.policy('init', '--check', '--host', 'gemini');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('drift: Gemini CLI: Gemini reads .gemini/settings.json only in a folder it trusts');
  }, HOST_SESSION_TIMEOUT_MS);
});
