import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as api from './index';

it('runs the whole pipeline through the public API', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'api-')));
  try {
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, '.claude/policies.yaml'), 'version: 1\nrules:\n  - { id: no-rm, on: PreToolUse, tools: Bash, command: ["\\\\brm\\\\s+-rf\\\\b"], deny: "No rm -rf." }\n');
    const [file] = api.discoverPolicyFiles({ configs: [], env: {}, projectRoot: root });
    const { policy, diagnostics } = api.buildPolicy([file], api.createFsReader(api.defaultPackDir()));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    const decision = await api.evaluate(policy!, event, { projectRoot: root, env: {}, facts: api.createFileFacts(root) });
    expect(api.renderResponse(decision, { onError: 'open' })).toEqual({
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No rm -rf."}}\n',
      stderr: '',
      exitCode: 0,
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

it('exports every stage by name', () => {
  const stages = ['parsePolicyText', 'loadPolicyFiles', 'validatePolicyFile', 'compilePolicy', 'buildPolicy', 'buildRuleIndex',
    'evaluate', 'renderResponse', 'renderFailure', 'createFileFacts', 'loadPolicy', 'loadPolicyForEvent', 'recordDecision', 'protocolFor', 'diagnostic',
    'lintPolicy', 'lintSources', 'explainText', 'explainJson', 'planHooks', 'installHooks', 'checkDrift', 'matcherAccepts',
    'readDecisionLog', 'verifyDecisionLog', 'verifyChain'];
  for (const name of stages) expect(typeof (api as Record<string, unknown>)[name]).toBe('function');
});
