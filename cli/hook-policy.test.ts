/**
 * runHook with an injected compiled policy (what `policy test` and `policy serve` do):
 * no discovery, no cache file, same answers as the file path.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compilePolicyFiles } from '../engine/host/compile-entry';
import type { CompiledPolicy, Facts } from '../engine/types';
import { runHook } from './hook';

let project: string;
let cacheDir: string;

const POLICY = `version: 1
settings: { on_error: closed }
rules:
  - { id: keep-going, on: Stop, block: "Not done yet." }
  - id: notes
    on: TeammateIdle
    require: [{ file: "notes/{{teammate_name}}.md", min_bytes: 5 }]
    block: "{{teammate_name}}: write notes/{{teammate_name}}.md first"
`;

function compiled(): CompiledPolicy {
  fs.writeFileSync(path.join(project, 'policy.yaml'), POLICY);
  const built = compilePolicyFiles([path.join(project, 'policy.yaml').split(path.sep).join('/')]);
  if (!built.policy) throw new Error(JSON.stringify(built.diagnostics));
  return built.policy;
}

beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'runhook-policy-')));
  cacheDir = path.join(project, 'cache');
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const input = (stdin: string, policy: CompiledPolicy, extra: { argv?: string[]; facts?: Facts } = {}) => ({
  argv: extra.argv ?? [],
  stdin,
  env: { CLAUDE_PROJECT_DIR: project, HOOKPOLICY_CACHE_DIR: cacheDir },
  cwd: project,
  policy,
  facts: extra.facts,
  compiler: () => {
    throw new Error('the compiler must not be reached with an injected policy');
  },
});

it('answers from the injected policy without discovery or cache', async () => {
  // No policy file at any discovered place, and the compiler throws: only the injected policy can answer.
  const policy = compiled();
  fs.rmSync(path.join(project, 'policy.yaml'));
  const result = await runHook(input('{"hook_event_name":"Stop"}', policy));
  expect(result.response).toEqual({ stdout: '{"decision":"block","reason":"Not done yet."}\n', stderr: '', exitCode: 0 });
  expect(result.decision?.decidedBy.map((h) => h.id)).toEqual(['keep-going']);
  expect(fs.existsSync(cacheDir)).toBe(false);
});

it("renders a malformed event per the injected policy's on_error", async () => {
  const result = await runHook(input('not json', compiled()));
  expect(result.response.exitCode).toBe(0);
  expect(result.response.stderr).toContain('event-malformed');
  expect(result.response.stderr).toContain('failing closed');
});

it('still honours --on-error given on the command line', async () => {
  const result = await runHook(input('not json', compiled(), { argv: ['--on-error', 'open'] }));
  expect(result.response.stderr).toContain('failing open');
});

it('asks injected facts instead of the file system', async () => {
  const facts: Facts = {
    findFiles: (glob) => (glob.endsWith('notes/murdock.md') ? [{ path: 'notes/murdock.md', size: 40, mtimeMs: 0 }] : []),
    stat: (p) => (p.endsWith('notes/murdock.md') ? 'file' : null),
    readText: () => null,
  };
  const event = '{"hook_event_name":"TeammateIdle","teammate_name":"murdock","team_name":"t"}';
  const withFacts = await runHook(input(event, compiled(), { facts }));
  expect(withFacts.response).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  const onDisk = await runHook(input(event, compiled()));
  expect(onDisk.response).toEqual({ stdout: '', stderr: 'murdock: write notes/murdock.md first\n', exitCode: 2 });
});
