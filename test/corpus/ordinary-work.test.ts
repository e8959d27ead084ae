/**
 * Quiet by default, measured: every call of the ordinary-work corpus
 * (fixtures/corpus/ordinary-work.yaml: test runs, builds, linters, formatters, git,
 * package managers, containers, package.json scripts and the tool calls around them, per
 * role) goes through each shipped pack alone and through all of them together, as the
 * runner judges it (runHook, the real file system of a project holding the corpus's
 * files, an empty memory store). Each answer is counted against what the seed implies:
 * a false ask or deny is a defect, and so is a false pass.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHook } from '../../cli/hook';
import { testSandbox } from '../../cli/commands/test';
import { compileGuarded } from '../../engine/host/compile-entry';
import { createFileFacts } from '../../engine/host/file-facts';
import { InMemoryMemory } from '../../engine/memory/in-memory';
import type { CompiledPolicy } from '../../engine/types';
import { expectGeneratedSection } from '../support/doc-sections';
import { answerOf, combined, loadCorpus, PACKS, type Answer, type Call } from './corpus';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-corpus-')));
const project = path.join(root, 'shop');
const corpus = loadCorpus(project);

interface Tally {
  pack: string;
  calls: number;
  quiet: number;
  sandboxed: number;
  refused: number;
  asked: number;
  falseAsks: string[];
  falseDenies: string[];
  falsePasses: string[];
}

function compiled(packs: readonly string[]): CompiledPolicy {
  const file = path.join(root, 'policies', `${packs.join('+')}.yaml`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `version: 1\ninclude: [${packs.join(', ')}]\n`);
  const built = compileGuarded([file], {}, project);
  expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const policy = built.policy!;
  // The corpus writes no decision log.
  return { ...policy, settings: { ...policy.settings, log: { file: null, webhook: null, record: [] } } };
}

async function tally(name: string, policy: CompiledPolicy, expected: (call: Call) => Answer): Promise<Tally> {
  const t: Tally = { pack: name, calls: 0, quiet: 0, sandboxed: 0, refused: 0, asked: 0, falseAsks: [], falseDenies: [], falsePasses: [] };
  const rank: Record<Answer, number> = { quiet: 0, ask: 1, refuse: 2 };
  for (const call of corpus.calls) {
    const facts = { ...createFileFacts(project), memory: new InMemoryMemory([]) };
    const hook = await runHook({ argv: [], stdin: JSON.stringify(call.event), env: {}, cwd: project, policy, memoryStore: false, facts, sandbox: testSandbox });
    const got = answerOf(hook.decision);
    const want = expected(call);
    t.calls++;
    if (got === 'quiet') t.quiet++;
    if (hook.decision?.sandbox) t.sandboxed++;
    if (got === 'refuse') t.refused++;
    if (got === 'ask') t.asked++;
    const why = `${call.label}: ${got}, the seed implies ${want}${hook.decision?.reason ? ` (${hook.decision.reason.split('\n')[0].slice(0, 160)})` : ''}`;
    if (got === want) continue;
    if (rank[got] < rank[want]) t.falsePasses.push(why);
    else if (got === 'ask') t.falseAsks.push(why);
    else t.falseDenies.push(why);
  }
  return t;
}

beforeAll(() => {
  for (const [rel, text] of Object.entries(corpus.project)) {
    fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
    fs.writeFileSync(path.join(project, rel), text);
  }
  spawnSync('git', ['init', '-q'], { cwd: project });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the ordinary-work corpus', () => {
  const results: Tally[] = [];

  test('holds at least 300 calls, by every role of the packs', () => {
    expect(corpus.calls.length).toBeGreaterThanOrEqual(300);
    const agents = new Set(corpus.calls.map((c) => (c.event.agent_type as string | undefined) ?? 'main session'));
    for (const who of ['main session', 'murdock', 'ba', 'ai-team:lynch', 'amy', 'sosa', 'implementer-1', 'researcher-1', 'Explore']) expect(agents).toContain(who);
  });

  test.each(PACKS.map((p) => [p]))('%s: no false ask, no false deny, no false pass', async (pack) => {
    const t = await tally(pack, compiled([pack]), (call) => call.expect[pack] ?? 'quiet');
    results.push(t);
    expect({ falseAsks: t.falseAsks, falseDenies: t.falseDenies, falsePasses: t.falsePasses }).toEqual({ falseAsks: [], falseDenies: [], falsePasses: [] });
  }, 120_000);

  test('all the packs together: no false ask, no false deny, no false pass', async () => {
    const t = await tally('all five', compiled(PACKS), (call) => combined(call.expect));
    results.push(t);
    expect({ falseAsks: t.falseAsks, falseDenies: t.falseDenies, falsePasses: t.falsePasses }).toEqual({ falseAsks: [], falseDenies: [], falsePasses: [] });
  }, 120_000);

  test('docs/packs.md shows the counts', () => {
    expect(results.map((t) => t.pack)).toEqual([...PACKS, 'all five']);
    const rows = results.map((t) => `| ${t.pack} | ${t.calls} | ${t.quiet}${t.sandboxed > 0 ? ` (${t.sandboxed})` : ''} | ${t.refused} | ${t.asked}${t.asked > 0 ? ' (`.npmrc`)' : ''} | ${t.falseAsks.length} | ${t.falseDenies.length} | ${t.falsePasses.length} |`);
    const table = ['| pack | calls | quiet (sandboxed) | refused | asked | false asks | false denies | false passes |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
    expectGeneratedSection('packs.md', '<!-- corpus-table:start (generated by test/corpus/ordinary-work.test.ts) -->', '<!-- corpus-table:end -->', table);
  });

  afterAll(() => {
    const rows = results.map((t) => `  ${t.pack.padEnd(15)} ${String(t.calls).padStart(4)} calls  ${String(t.quiet).padStart(4)} quiet (${t.sandboxed} sandboxed)  ${String(t.refused).padStart(3)} refused  ${String(t.asked).padStart(3)} asked  false asks ${t.falseAsks.length}, false denies ${t.falseDenies.length}, false passes ${t.falsePasses.length}`);
    process.stdout.write(`\nordinary-work corpus (fixtures/corpus/ordinary-work.yaml):\n${rows.join('\n')}\n`);
  });
});
