/**
 * The fast path, `policy init --mode http`, in the real client: no process per event, the
 * same decisions as the command runner. The policy server is started by the SessionStart
 * hook init writes (nothing runs before the session), picks up a policy edited during the
 * session, and when it is gone the calls are refused instead of let through, whatever
 * on_error says; a listener that is not this user's server ends the session before any call.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say, tools, type Scenario, stopServerCommand } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS, type CaseRun } from './suite';
import { modelSaw, requestsOf, toolResult } from './transcript';

const POLICY = (reason: string, extra = '') => `version: 1
settings:
  on_error: closed
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env", "**/.env"] }
    deny: "${reason}"
  - id: tell-subagents
    on: SubagentStart
    context: "FAST-PATH-CONTEXT: read docs/rules.md first."
  - id: tell-prompts
    on: UserPromptSubmit
    context: "FAST-PATH-PROMPT: the team works in src/."
${extra}`;

const LYNCH = '---\nname: lynch\ndescription: Reviews code.\ntools: Read, Write\n---\nYou review code.\n';

/** A port of its own per case (each session has its own network namespace where one can be made). */
function port(): number {
  return 40000 + Math.floor(Math.random() * 20000);
}

const write = (dir: string, file: string) => ({ name: 'Write', input: { file_path: path.join(dir, file), content: `${file}\n` } });

/** The server's log, in the session's HOME (the cache folder holds the server's state). */
function serverLog(run: CaseRun, p: number): string {
  const file = path.join(run.project.homeDir, '.cache', 'hookpolicy', 'serve', `port-${p}`, 'server.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

function sessionId(run: CaseRun): string {
  const init = (run.session.messages as Array<Record<string, unknown>>).find((m) => m?.type === 'system' && m.subtype === 'init');
  return String(init?.session_id);
}

describeRealClient('the fast path: policy init, http by default', () => {
  it('decides as the command runner does (deny, allow, context for a subagent and a prompt), with the server started by SessionStart', () => {
    const p = port();
    const scenario = (dir: string): Scenario => ({
      main: [
        tools(write(dir, '.env')),
        tools(write(dir, 'a.txt')),
        tools({ name: 'Agent', input: { description: 'review', prompt: 'SUBAGENT-LYNCH: review', subagent_type: 'lynch' } }),
        say('Waiting.'),
        say('Done.'),
      ],
      subagents: [{ marker: 'SUBAGENT-LYNCH', turns: [tools(write(dir, 'sub/.env')), say('Reviewed.')] }],
    });
    const runs = [['--mode', 'command'], ['--port', String(p)]].map((initArgs) => runCase({ policy: POLICY('{{path}} holds secrets'), files: { '.claude/agents/lynch.md': LYNCH }, initArgs, scenario }));
    const [command, http] = runs;
    const settings = JSON.parse(http.project.read('.claude/settings.json') ?? '{}');
    expect(settings.hooks.PreToolUse.at(-1).hooks).toEqual([{ type: 'http', url: `http://127.0.0.1:${p}/policy-hook`, timeout: expect.any(Number), onFailure: 'block' }]);
    expect(JSON.parse(command.project.read('.claude/settings.json') ?? '{}').hooks.PreToolUse.at(-1).hooks[0].type).toBe('command');

    const seen = runs.map((run) => {
      const normal = (text: string | undefined) => text?.split(run.project.projectDir).join('<project>');
      return {
        env: toolResult(run.session.requests, 'toolu_m_0_0'),
        a: { ...toolResult(run.session.requests, 'toolu_m_1_0'), text: normal(toolResult(run.session.requests, 'toolu_m_1_0')?.text) },
        subEnv: toolResult(run.session.requests, 'toolu_s0_0_0'),
        subagentContext: modelSaw(requestsOf(run.session.requests, 'SUBAGENT-LYNCH'), 'FAST-PATH-CONTEXT: read docs/rules.md first.'),
        promptContext: modelSaw(requestsOf(run.session.requests, 'main'), 'FAST-PATH-PROMPT: the team works in src/.'),
        files: ['.env', 'a.txt', 'sub/.env'].map((f) => run.project.exists(f)),
      };
    });
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[1]).toEqual({
      env: { text: 'PreToolUse:Write hook error: .env holds secrets', isError: true },
      a: { text: expect.stringMatching(/^File created successfully at: <project>\/a\.txt/), isError: false },
      subEnv: { text: 'PreToolUse:Write hook error: sub/.env holds secrets', isError: true },
      subagentContext: true,
      promptContext: true,
      files: [false, true, false],
    });
    // The SessionStart hook started the server and registered this very session with it.
    expect(serverLog(http, p)).toContain(`session ${sessionId(http)} registered for ${http.project.projectDir}`);
  }, 2 * SESSION_TIMEOUT_MS);

  it('picks up a policy edited during the session at the next call', () => {
    const p = port();
    const v2 = POLICY('v2: never write {{path}}', `  - id: no-b
    on: PreToolUse
    tools: Write
    paths: { deny: ["b.txt"] }
    deny: "v2: b.txt is new"
`);
    const run = runCase({
      policy: POLICY('v1: {{path}} holds secrets'),
      files: { 'policy-v2.yaml': v2 },
      initArgs: ['--mode', 'http', '--port', String(p)],
      // After the first call that runs, the team edits the policy (a hook of the test, not the agent).
      beforeSession: (project) => {
        const file = path.join(project.projectDir, '.claude', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
        const edit = 'cd "$CLAUDE_PROJECT_DIR" && { [ -e .edited ] || { cp policy-v2.yaml .claude/policies.yaml && touch .edited; }; } && cat > /dev/null';
        settings.hooks.PostToolUse = [...(settings.hooks.PostToolUse ?? []), { matcher: 'Write', hooks: [{ type: 'command', command: edit }] }];
        fs.writeFileSync(file, JSON.stringify(settings, null, 2));
      },
      scenario: (dir) => ({ main: [tools(write(dir, '.env')), tools(write(dir, 'a.txt')), tools(write(dir, '.env')), tools(write(dir, 'b.txt')), say('Done.')] }),
    });
    expect(toolResult(run.session.requests, 'toolu_m_0_0')).toEqual({ text: 'PreToolUse:Write hook error: v1: .env holds secrets', isError: true });
    expect(toolResult(run.session.requests, 'toolu_m_1_0')?.isError).toBe(false);
    expect(toolResult(run.session.requests, 'toolu_m_2_0')).toEqual({ text: 'PreToolUse:Write hook error: v2: never write .env', isError: true });
    expect(toolResult(run.session.requests, 'toolu_m_3_0')).toEqual({ text: 'PreToolUse:Write hook error: v2: b.txt is new', isError: true });
    expect([run.project.exists('a.txt'), run.project.exists('b.txt')]).toEqual([true, false]);
  }, SESSION_TIMEOUT_MS);

  it('the agent kills the server: every call after is refused (onFailure: block), none goes through', () => {
    const p = port();
    const run = runCase({
      policy: POLICY('{{path}} holds secrets'),
      initArgs: ['--mode', 'http', '--port', String(p)],
      scenario: (dir) => ({
        main: [
          tools(write(dir, 'a.txt')),
            tools({ name: 'Bash', input: { command: stopServerCommand(p), description: 'stop the policy server' } }),
          tools(write(dir, 'b.txt')),
          tools({ name: 'Bash', input: { command: 'echo unchecked > c.txt', description: 'write' } }),
          say('Done.'),
        ],
      }),
    });
    expect(toolResult(run.session.requests, 'toolu_m_0_0')?.isError).toBe(false);
    expect(toolResult(run.session.requests, 'toolu_m_1_0')?.isError).toBe(false);
    expect(serverLog(run, p)).toContain('stopped: signal');
    for (const [id, tool] of [['toolu_m_2_0', 'Write'], ['toolu_m_3_0', 'Bash']]) {
      const result = toolResult(run.session.requests, id);
      expect(result?.isError).toBe(true);
      expect(result?.text).toBe(`PreToolUse:${tool} hook error: [http://127.0.0.1:${p}/policy-hook]: failed; blocking because onFailure is "block"\nconnect ECONNREFUSED 127.0.0.1:${p}`);
    }
    expect([run.project.exists('a.txt'), run.project.exists('b.txt'), run.project.exists('c.txt')]).toEqual([true, false, false]);
  }, SESSION_TIMEOUT_MS);

  it('under on_error: open too, the agent that kills the server gets its later calls refused, not let through', () => {
    const p = port();
    const run = runCase({
      policy: POLICY('{{path}} holds secrets').replace('on_error: closed', 'on_error: open'),
      initArgs: ['--port', String(p)],
      scenario: (dir) => ({
        main: [
          tools(write(dir, 'a.txt')),
          tools({ name: 'Bash', input: { command: stopServerCommand(p), description: 'stop the policy server' } }),
          tools(write(dir, 'b.txt')),
          say('Done.'),
        ],
      }),
    });
    expect(run.project.read('.claude/settings.json')).toContain('"onFailure": "block"');
    expect(toolResult(run.session.requests, 'toolu_m_0_0')?.isError).toBe(false);
    expect(serverLog(run, p)).toContain('stopped: signal');
    expect(toolResult(run.session.requests, 'toolu_m_2_0')).toEqual({ isError: true, text: `PreToolUse:Write hook error: [http://127.0.0.1:${p}/policy-hook]: failed; blocking because onFailure is "block"\nconnect ECONNREFUSED 127.0.0.1:${p}` });
    expect([run.project.exists('a.txt'), run.project.exists('b.txt')]).toEqual([true, false]);
  }, SESSION_TIMEOUT_MS);

  it('a listener on the port that is not this user\'s server: the session is ended before any call', () => {
    const p = port();
    const impostor = `require('http').createServer((q, s) => { q.resume(); s.end('{}'); }).listen(${p}, '127.0.0.1')`;
    const run = runCase({
      policy: POLICY('{{path}} holds secrets'),
      initArgs: ['--mode', 'http', '--port', String(p)],
      background: [{ argv: [process.execPath, '-e', impostor], port: p }],
      scenario: (dir) => ({ main: [tools(write(dir, 'a.txt')), say('Done.')] }),
    });
    expect(run.session.exitCode === 143 || run.session.signal === 'SIGTERM').toBe(true);
    expect(run.project.exists('a.txt')).toBe(false);
    // The model was never asked anything; the stream shows why the session ended.
    expect(run.session.requests).toEqual([]);
    const said = (run.session.messages as Array<Record<string, unknown>>).filter((m) => m?.subtype === 'hook_response').map((m) => String(m.stderr));
    expect(said).toContainEqual(expect.stringMatching(new RegExp(`^hookpolicy: the policy server on 127\\.0\\.0\\.1:${p} cannot be used: something else listens on 127\\.0\\.0\\.1:${p} .*This session is stopped: that listener would answer in the policy's place`)));
  }, SESSION_TIMEOUT_MS);
});
