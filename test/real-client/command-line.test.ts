/**
 * What the model reads of the registered command: Stop, SubagentStop and PostToolUse
 * blocks quote the hook's command line as written in the settings, before
 * `${CLAUDE_PROJECT_DIR}` is expanded. Init's shared (project) entry therefore shows the
 * model no path of the machine; a personal (local scope) entry shows this machine's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { requestsOf } from './transcript';

const POLICY = 'version: 1\nrules:\n  - id: keep-going\n    on: Stop\n    match: { stop_hook_active: false }\n    block: "KEEP-GOING"\n';

/** The text the model read for the Stop block (the system message quoting the command). */
function quotedCommand(requests: ReturnType<typeof runCase>['session']['requests']): string | null {
  const last = requestsOf(requests, 'main').at(-1);
  const text = JSON.stringify(last?.body?.messages ?? []);
  return /Stop hook blocking error from command: \\"(.*?)\\": KEEP-GOING/.exec(text)?.[1] ?? null;
}

describeRealClient('the command line the model reads', () => {
  it('init\'s shared entry is quoted as written: ${CLAUDE_PROJECT_DIR}, unexpanded, and node from PATH', () => {
    const { session } = runCase({ policy: POLICY, scenario: { main: [say('stop'), say('stop again')] } });
    expect(quotedCommand(session.requests)).toBe('/usr/bin/env -u NODE_EXTRA_CA_CERTS node ${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs hook');
  }, SESSION_TIMEOUT_MS);

  it('a personal (--scope local) entry shows the model this machine\'s paths of node and the runner', () => {
    const { session, project } = runCase({ policy: POLICY, initArgs: ['--mode', 'command', '--scope', 'local'], scenario: { main: [say('stop'), say('stop again')] } });
    expect(fs.existsSync(path.join(project.projectDir, '.claude', 'settings.local.json'))).toBe(true);
    expect(quotedCommand(session.requests)).toMatch(/^\/usr\/bin\/env -u NODE_EXTRA_CA_CERTS \/\S*node \/\S*\/bin\/policy\.cjs hook$/);
  }, SESSION_TIMEOUT_MS);
});
