/**
 * The shipped packs under each host where their events exist: ai-team's lanes and
 * security-guard's, in a project initialised with `policy init --host`, driven by the real
 * binaries against the scripted model. Codex names the acting subagent (agent_type), so
 * every lane holds; Gemini names none, so ai-team's per-agent lanes are set aside visibly
 * (host-no-identity) while security-guard's hold.
 */
import { say, tools, type Scenario } from '../scenario';
import { describeHost, HOST_SESSION_TIMEOUT_MS, runHostCase } from './suite';
import { codexRequestText, codexToolOutput } from './wire-responses';
import { geminiRequestText, geminiToolOutput } from './wire-gemini';

const PACKS = 'version: 1\ninclude: [ai-team, security-guard]\n';
const PACKAGE = { 'package.json': '{ "name": "shop", "version": "4.2.0" }\n' };

describeHost('codex', 'the shipped packs under Codex CLI', () => {
  const shell = (cmd: string) => ({ name: 'exec_command', input: { cmd } });
  const spawn = (agentType: string, message: string) => ({ name: 'spawn_agent', namespace: 'multi_agent_v1', input: { message, agent_type: agentType } });
  const wait = { name: 'wait_agent', namespace: 'multi_agent_v1', input: { targets: ['$AGENT_ID'], timeout_ms: 60_000 } };

  it('holds ai-team\'s lanes for the orchestrator, the reviewer and the tester, and security-guard\'s', () => {
    const scenario: Scenario = {
      main: [
        tools(shell('mkdir -p mission && echo "plan: ship" > mission/plan.md')),
        tools(shell('mkdir -p src && echo "export {}" > src/app.ts')),
        tools(spawn('lynch', 'SUBAGENT-LYNCH: review')), tools(wait),
        tools(spawn('murdock', 'SUBAGENT-MURDOCK: test')), tools(wait),
        tools(shell('echo SECRET=1 > .env')),
        say('done'),
      ],
      subagents: [
        { marker: 'SUBAGENT-LYNCH', turns: [tools(shell('echo "looks fine" > review.md')), say('reviewed')] },
        { marker: 'SUBAGENT-MURDOCK', turns: [tools(shell('mkdir -p tests && echo "test" > tests/app.test.ts')), tools(shell('mkdir -p src && echo "fix" > src/fix.ts')), say('tested')] },
      ],
    };
    const { project, session } = runHostCase({ host: 'codex', policy: PACKS, files: PACKAGE, scenario, codexAgents: ['lynch', 'murdock'] });
    // Hannibal, the main session, writes mission files only.
    expect(project.exists('mission/plan.md')).toBe(true);
    expect(project.exists('src/app.ts')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_m_1_0')).toContain('hannibal is the orchestrator and writes only mission/');
    // Lynch writes nothing; Murdock writes tests only.
    expect(project.exists('review.md')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_s0_0_0')).toContain('lynch is the reviewer and writes no files');
    expect(project.exists('tests/app.test.ts')).toBe(true);
    expect(project.exists('src/fix.ts')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_s1_1_0')).toContain('murdock is the tester and writes test files only');
    // security-guard: no secrets written, and the model is told the project and version.
    expect(project.exists('.env')).toBe(false);
    expect(codexToolOutput(session.requests, 'call_m_6_0')).toMatch(/\.env/);
    expect(session.requests.filter((r) => r.script === 'main').some((r) => codexRequestText(r).includes('4.2.0'))).toBe(true);
  }, HOST_SESSION_TIMEOUT_MS);
});

describeHost('gemini', 'the shipped packs under Gemini CLI', () => {
  const shell = (command: string) => ({ name: 'run_shell_command', input: { command } });

  it('holds security-guard\'s lanes, and says which ai-team lanes it cannot apply', () => {
    const scenario: Scenario = { main: [tools(shell('echo SECRET=1 > .env')), tools(shell('cat .env.example')), say('done')] };
    const { project, session } = runHostCase({ host: 'gemini', policy: PACKS, files: { ...PACKAGE, '.env.example': 'A=1\n' }, scenario });
    expect(project.exists('.env')).toBe(false);
    expect(geminiToolOutput(session.requests, 'run_shell_command', 0)).toMatch(/Tool execution blocked: .*\.env/);
    expect(session.requests.filter((r) => r.script === 'main').some((r) => geminiRequestText(r).includes('4.2.0'))).toBe(true);
    expect(`${session.stdout}\n${session.stderr}`).toContain('names agents');
  }, HOST_SESSION_TIMEOUT_MS);
});
