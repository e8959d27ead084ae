/**
 * What the model reads of the registered command: Stop, SubagentStop and PostToolUse
 * blocks quote the hook's command line. Measured for the entry `policy init` writes and
 * for an entry that names the runner through `${CLAUDE_PROJECT_DIR}`.
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

/** Replaces init's runner entry with one whose runner path starts with ${CLAUDE_PROJECT_DIR}. */
function useProjectDirEntry(projectDir: string): void {
  const file = path.join(projectDir, '.claude', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const group of settings.hooks.Stop) {
    for (const hook of group.hooks) {
      if (!Array.isArray(hook.args)) continue;
      hook.args = hook.args.map((a: string) => (a.endsWith('policy.cjs') ? '${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs' : a));
    }
  }
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

describeRealClient('the command line the model reads', () => {
  it('init\'s exec entry is quoted whole: env, node\'s absolute path and the runner\'s', () => {
    const { session } = runCase({ policy: POLICY, scenario: { main: [say('stop'), say('stop again')] } });
    const quoted = quotedCommand(session.requests);
    expect(quoted).toMatch(/^\/usr\/bin\/env -u NODE_EXTRA_CA_CERTS \S*node \S*\/bin\/policy\.cjs hook$/);
  }, SESSION_TIMEOUT_MS);

  it('an entry through ${CLAUDE_PROJECT_DIR} is quoted as written, before expansion', () => {
    const { session } = runCase({ policy: POLICY, beforeSession: (p) => useProjectDirEntry(p.projectDir), scenario: { main: [say('stop'), say('stop again')] } });
    expect(quotedCommand(session.requests)).toMatch(/ \$\{CLAUDE_PROJECT_DIR\}\/node_modules\/hookpolicy\/bin\/policy\.cjs hook$/);
  }, SESSION_TIMEOUT_MS);
});
