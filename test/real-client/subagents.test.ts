/**
 * Subagents in the real client: defined in .claude/agents/, started by the Agent tool,
 * in the background (the client's default). A per-agent rule holds inside the subagent
 * it names and leaves general-purpose alone; each finished subagent comes back to the
 * main session as a `<task-notification>` prompt, which `prompts: user` rules skip.
 */
import * as path from 'node:path';
import { payloadsOf } from './payloads';
import { say, tools, type Scenario } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { modelSaw, requestsOf, toolResult } from './transcript';

const LYNCH = '---\nname: lynch\ndescription: Reviews code and writes nothing.\ntools: Read, Write, Bash\n---\nYou review.\n';

const POLICY = `version: 1
agents:
  main: lead
  roles: { reviewer: [lynch] }
rules:
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Write|Edit|Bash
    agents: reviewer
    paths: { deny: ["**"] }
    deny: "{{agent}} reviews and writes nothing: REVIEWER-DENIED {{path}}"
  - id: typed-prompt-context
    on: UserPromptSubmit
    prompts: user
    context: "TYPED-PROMPT-CONTEXT"
  - id: notification-context
    on: UserPromptSubmit
    prompts: task-notification
    context: "NOTIFICATION-CONTEXT"
`;

/** The main session starts lynch and general-purpose at once; each tries to write a file. */
function twoSubagents(dir: string): Scenario {
  const write = (file: string) => tools({ name: 'Write', input: { file_path: path.join(dir, file), content: 'x\n' } });
  return {
    main: [
      tools(
        { name: 'Agent', input: { description: 'review', prompt: 'SUBAGENT-LYNCH: review the change', subagent_type: 'lynch' } },
        { name: 'Agent', input: { description: 'build', prompt: 'SUBAGENT-GP: write the file', subagent_type: 'general-purpose' } },
      ),
      say('Waiting for both.'),
      say('One finished.'),
      say('Both finished.'),
    ],
    subagents: [
      { marker: 'SUBAGENT-LYNCH', turns: [write('lynch.txt'), tools({ name: 'Bash', input: { command: 'echo pwned > lynch-bash.txt' } }), say('Reviewed.')] },
      { marker: 'SUBAGENT-GP', turns: [write('gp.txt'), say('Written.')] },
    ],
  };
}

describeRealClient('subagents', () => {
  it('a per-agent deny holds inside lynch, for Write and for a Bash write, while general-purpose writes', () => {
    const { project, session, payloads } = runCase({ policy: POLICY, files: { '.claude/agents/lynch.md': LYNCH }, scenario: twoSubagents });
    expect(project.exists('lynch.txt')).toBe(false);
    expect(project.exists('lynch-bash.txt')).toBe(false);
    expect(project.exists('gp.txt')).toBe(true);
    expect(toolResult(session.requests, 'toolu_s0_0_0')).toEqual({ isError: true, text: `PreToolUse:Write hook error: lynch reviews and writes nothing: REVIEWER-DENIED lynch.txt` });
    expect(toolResult(session.requests, 'toolu_s0_1_0')).toEqual({ isError: true, text: `PreToolUse:Bash hook error: lynch reviews and writes nothing: REVIEWER-DENIED lynch-bash.txt` });
    // The subagents' tool events carry their identity; the main session's carry none.
    const agents = payloadsOf(payloads, 'PreToolUse').map((p) => p.agent_type ?? null);
    expect(agents).toEqual(expect.arrayContaining(['lynch', 'general-purpose', null]));
  }, SESSION_TIMEOUT_MS);

  it('each finished background subagent fires UserPromptSubmit again; prompts: user skips those notifications', () => {
    const { session, payloads } = runCase({ policy: POLICY, files: { '.claude/agents/lynch.md': LYNCH }, scenario: twoSubagents });
    const prompts = payloadsOf(payloads, 'UserPromptSubmit').map((p) => String(p.prompt));
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toBe('Do the scripted task.');
    expect(prompts.slice(1).every((p) => p.startsWith('<task-notification>'))).toBe(true);
    const main = requestsOf(session.requests, 'main');
    expect(main.length).toBeGreaterThanOrEqual(3);
    const count = (text: string) => main.at(-1)!.body!.messages!.filter((m) => JSON.stringify(m.content).includes(text)).length;
    expect(count('TYPED-PROMPT-CONTEXT')).toBe(1);
    // One per notification, but two subagents that finish together may reach the model in one turn.
    expect(count('NOTIFICATION-CONTEXT')).toBeGreaterThanOrEqual(1);
    expect(modelSaw(requestsOf(session.requests, 'SUBAGENT-GP'), 'TYPED-PROMPT-CONTEXT')).toBe(false);
  }, SESSION_TIMEOUT_MS);
});
