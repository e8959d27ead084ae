/**
 * The default install (http entries, a policy server each session starts) in the
 * interactive client, over two prompts: the agent kills the server during the first, so
 * its next call is refused (onFailure: block), and the second prompt's UserPromptSubmit
 * hook starts the server again, so the calls after it are judged by the policy again:
 * one allowed, one denied. Driven in tmux, as a person types.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runScreenClient } from './client';
import { makeClientProject } from './project';
import { say, tools, stopServerCommand } from './scenario';
import { describeRealClient, SESSION_TIMEOUT_MS } from './suite';
import { toolResult } from './transcript';

const POLICY = `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env", "**/.env"] }
    deny: "{{path}} holds secrets"
`;

describeRealClient('the default install across prompts', () => {
  it('a server the agent killed refuses the calls until the next prompt starts it again', () => {
    const port = 40000 + Math.floor(Math.random() * 20000);
    const project = makeClientProject({ policy: POLICY, initArgs: ['--port', String(port)] });
    // The person has allowed Write and Bash in this project: no permission dialog between the steps.
    const settingsFile = path.join(project.projectDir, '.claude', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    settings.permissions = { ...settings.permissions, allow: ['Write', 'Bash'] };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    expect(settings.hooks.UserPromptSubmit.at(-1).hooks[0].args).toEqual(expect.arrayContaining(['serve', '--ensure', '--port', String(port)]));

    const write = (file: string) => ({ name: 'Write', input: { file_path: path.join(project.projectDir, file), content: `${file}\n` } });
    const scenario = {
      main: [
        tools({ name: 'Bash', input: { command: stopServerCommand(port), description: 'stop the policy server' } }),
        tools(write('a.txt')),
        say('FIRST-PROMPT-DONE'),
        tools(write('b.txt')),
        tools(write('.env')),
        say('SECOND-PROMPT-DONE'),
      ],
    };
    const outcome = runScreenClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      scenario,
      steps: [
        { waitFor: 'manual mode on' },
        { keys: ['Stop the server.', 'Enter'] },
        { waitFor: 'FIRST-PROMPT-DONE' },
        { keys: ['Go on.', 'Enter'] },
        { waitFor: 'SECOND-PROMPT-DONE' },
        { capture: 'end' },
      ],
    });
    if (outcome.stuck) throw new Error(`screen never showed "${outcome.stuck.waitFor}":\n${outcome.stuck.screen}`);

    expect(toolResult(outcome.requests, 'toolu_m_0_0')?.isError).toBe(false);
    expect(toolResult(outcome.requests, 'toolu_m_1_0')).toEqual({ isError: true, text: `PreToolUse:Write hook error: [http://127.0.0.1:${port}/policy-hook]: failed; blocking because onFailure is "block"\nconnect ECONNREFUSED 127.0.0.1:${port}` });
    expect(toolResult(outcome.requests, 'toolu_m_3_0')?.isError).toBe(false);
    expect(toolResult(outcome.requests, 'toolu_m_4_0')).toEqual({ isError: true, text: 'PreToolUse:Write hook error: .env holds secrets' });
    expect([project.exists('a.txt'), project.exists('b.txt'), project.exists('.env')]).toEqual([false, true, false]);
    const log = fs.readFileSync(path.join(project.homeDir, '.cache', 'hookpolicy', 'serve', `port-${port}`, 'server.log'), 'utf8');
    expect(log).toContain('stopped: signal');
    expect(log.match(/serving Claude Code sessions/g)).toHaveLength(2);
  }, SESSION_TIMEOUT_MS);
});
