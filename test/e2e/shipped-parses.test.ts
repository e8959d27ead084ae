/**
 * The shipped packs' parses that the build writes (dist/packs-parsed.json): the runner's
 * compile takes a pack from there instead of parsing its YAML, and only while the pack's
 * text is the one parsed. Shown with a copy of this installation whose file says something
 * the pack does not: the runner's answer then comes from the file. Run as Claude Code runs
 * the hook, in temp projects.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyInstall } from '../support/install';
import { makeProject, type TempProject } from '../support/run-hook';

const rmRoot = { hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
const reasonOf = (json: unknown) => (json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;

/** A copy of this installation (node_modules linked) whose packs-parsed.json gives guard-no-rm-root another message. */
function installWithMarkedParse(): string {
  const root = copyInstall();
  const file = path.join(root, 'dist', 'packs-parsed.json');
  const parses = JSON.parse(fs.readFileSync(file, 'utf8')) as { files: Record<string, { doc: { rules?: Array<{ id: string; deny?: string }> } }> };
  let marked = 0;
  for (const parse of Object.values(parses.files)) {
    for (const rule of parse.doc.rules ?? []) {
      if (rule.id === 'guard-no-rm-root') {
        rule.deny = 'MARKED: from the build parse {{command}}';
        marked++;
      }
    }
  }
  expect(marked).toBe(1);
  fs.writeFileSync(file, JSON.stringify(parses));
  return root;
}

describe('the shipped packs parsed at build time', () => {
  let p: TempProject;
  let install: string;
  beforeAll(() => {
    install = installWithMarkedParse();
  });
  afterAll(() => fs.rmSync(install, { recursive: true, force: true }));
  beforeEach(() => {
    p = makeProject('version: 1\ninclude: [security-guard]\n');
  });
  afterEach(() => p.remove());

  const bin = () => path.join(install, 'bin', 'policy.cjs');

  it('the runner compiles the pack from them: the answer is what they hold', () => {
    const r = p.run(rmRoot, { bin: bin() });
    expect(r.exitCode).toBe(0);
    expect(reasonOf(r.json)).toBe('MARKED: from the build parse rm -rf /');
  });

  it('a pack whose text is no longer the one parsed is parsed again', () => {
    const pack = path.join(install, 'policies', 'security-guard.yaml');
    const text = fs.readFileSync(pack, 'utf8');
    fs.writeFileSync(pack, `${text}# edited in place\n`);
    try {
      const r = p.run(rmRoot, { bin: bin() });
      expect(reasonOf(r.json)).toMatch(/^Refusing `rm -rf \/`: it recursively deletes the file system root/);
    } finally {
      fs.writeFileSync(pack, text);
    }
  });

  it('the installation as built answers as the pack says', () => {
    const r = p.run(rmRoot);
    expect(reasonOf(r.json)).toMatch(/^Refusing `rm -rf \/`: it recursively deletes the file system root/);
  });
});
