// The benchmark's projects, policies, events and suites, made in a temporary folder.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rootCertificates } from 'node:tls';

const AGENTS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const ROLES = { builders: ['alpha', 'bravo', 'charlie'], reviewers: ['delta', 'echo'], ops: ['foxtrot', 'golf', 'hotel'] };

/** One generated rule of a realistic mix: write fences, command bans, MCP asks, URL and prompt filters... */
function generatedRule(i) {
  const role = Object.keys(ROLES)[i % 3];
  const agent = AGENTS[i % AGENTS.length];
  const id = `gen-${String(i).padStart(4, '0')}`;
  switch (i % 10) {
    case 0: return { id, on: 'PreToolUse', tools: 'Write|Edit|MultiEdit', agents: role, paths: { deny: [`services/svc${i}/secrets/**`] }, deny: `{{agent}} may not write {{path}} (service ${i} secrets)` };
    case 1: return { id, on: 'PreToolUse', tools: 'Bash', command: [`\\bdeploy-svc-${i}\\b.*--prod\\b`], deny: `Production deploys of service ${i} go through the release pipeline, not {{tool}}` };
    case 2: return { id, on: 'PreToolUse', tools: `mcp__srv${i % 37}__write_*`, agents: agent, ask: `{{agent}} is about to call {{tool}}` };
    case 3: return { id, on: 'PreToolUse', tools: 'WebFetch', match: { 'tool_input.url': `https://internal-${i}.example.com/*` }, deny: `internal-${i} is not reachable from agents` };
    case 4: return { id, on: 'PostToolUse', tools: 'Bash', command: [`\\bnpm\\s+publish\\b.*\\bpkg-${i}\\b`], warn: `pkg-${i} was published by hand` };
    case 5: return { id, on: 'PreToolUse', tools: 'Read|Grep|Glob', paths: { deny: [`vault/v${i}/**`, `**/*.vault${i}`] }, deny: `vault ${i} is off limits: {{path}}` };
    case 6: return { id, on: 'UserPromptSubmit', match: { prompt: `*codeword-${i}*` }, block: `codeword ${i} may not be sent` };
    case 7: return { id, on: 'PreToolUse', tools: 'Write|Edit', agents: 'golf', paths: { allow: [`ops/golf-${i}/**`], except: ['**/*.md'] }, deny: `golf writes only ops/golf-${i}/` };
    case 8: return { id, on: ['Stop', 'SubagentStop'], match: { session_id: `session-${i}` }, block: `session ${i} has unfinished work` };
    default: return { id, on: 'PreToolUse', tools: 'Edit|Write', agents: 'reviewers', paths: { deny: [`docs/generated-${i}/**`], except: ['**/README.md'] }, ask: `{{path}} is generated (${i}); edit the source instead?` };
  }
}

/** A policy of `count` rules: generated ones plus require, context and expression rules. */
export function generatedPolicy(count = 1000) {
  const special = [
    { id: 'gen-l1-l2-before-idle', on: ['TeammateIdle', 'TaskCompleted'], require: [
      { file: '.agent/teams/{{team_name}}/**/{{teammate_name}}/L1-index.yaml', min_bytes: 50 },
      { file: '.agent/teams/{{team_name}}/**/{{teammate_name}}/L2-summary.md', min_bytes: 100 },
    ], block: '{{teammate_name}}: write your notes first ({{unmet}})' },
    { id: 'gen-global-context', on: 'SubagentStart', let: { gc: { newest: '.agent/teams/*/global-context.md', extract: '^version:\\s*(\\S+)' } },
      context: 'Active team: {{gc.dir}}. Global context version {{gc}} ({{gc.path}}).' },
    { id: 'gen-notify-expr', on: 'Notification', when: "notification_type = 'permission_prompt' and $contains(message, 'rm')", warn: 'a permission prompt about rm' },
    { id: 'gen-stop-expr', on: 'PostToolUseFailure', when: "$length(error) > 200", warn: 'long tool failure' },
  ];
  const rules = [];
  for (let i = 0; rules.length < count - special.length; i++) rules.push(generatedRule(i));
  return { version: 1, agents: { identity: ['agent_type', 'teammate_name'], main: 'alpha', roles: ROLES }, rules: [...rules, ...special] };
}

/** The bench's kinds of event, for a project folder. */
export function events(dir, denyCommand) {
  const common = { session_id: 'bench-0001', transcript_path: join(dir, '.claude', 'transcript.jsonl'), cwd: dir };
  const tool = (name, input) => ({ ...common, hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: name, tool_input: input, tool_use_id: 'toolu_bench' });
  return {
    none: tool('Bash', { command: 'ls -la src && git status --short', description: 'list files' }),
    deny: tool('Bash', { command: denyCommand, description: 'bench' }),
    // Bash commands whose written paths must be known (the self-protection rule asks for every Bash
    // call); mission/ is a folder the packs' main agent (ai-team's orchestrator) may write.
    redirect: tool('Bash', { command: 'echo done > mission/out.txt', description: 'bench' }),
    heredoc: tool('Bash', { command: "cat <<'EOF' > mission/notes.md\n# Notes\nThe build passed; next: tag the release.\nEOF", description: 'bench' }),
    // A Write the main session makes: every rule on Write (a third of the 1,000) is a candidate.
    write: tool('Write', { file_path: join(dir, 'src', 'app.ts'), content: 'export {};\n' }),
    require: { ...common, hook_event_name: 'TeammateIdle', permission_mode: 'default', team_name: 't1', teammate_name: 'murdock' },
    context: { ...common, hook_event_name: 'SubagentStart', agent_id: 'agent-ba-1', agent_type: 'ba' },
  };
}

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A project with the files the require and context events look at, and its policy. */
function project(dir, policyText) {
  write(join(dir, '.claude', 'policies.yaml'), policyText);
  write(join(dir, '.agent', 'teams', 't1', 'murdock', 'L1-index.yaml'), `${'# index\n'.repeat(10)}`);
  write(join(dir, '.agent', 'teams', 't1', 'murdock', 'L2-summary.md'), `${'summary line\n'.repeat(12)}`);
  write(join(dir, '.agent', 'teams', 't1', 'global-context.md'), 'version: 7\n# global context\n');
  mkdirSync(join(dir, 'src'), { recursive: true });
  return dir;
}

/**
 * The command `policy init` installs for the project (shell form: one `sh -c` string),
 * or the plain `<node> <bin> hook` with a note when init does not produce one.
 */
function installedCommand(repo, dir, env) {
  const bin = join(repo, 'bin', 'policy.cjs');
  const fallback = `${process.execPath} ${bin} hook`;
  // Installed as a team has it (node_modules/hookpolicy), so init writes the shared entry.
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', 'hookpolicy'))) symlinkSync(repo, join(dir, 'node_modules', 'hookpolicy'), 'dir');
  const r = spawnSync(process.execPath, [bin, 'init', '--mode', 'command', '--form', 'shell', '--project-dir', dir], { env, encoding: 'utf8' });
  try {
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    for (const groups of Object.values(settings.hooks ?? {})) {
      for (const g of groups) for (const h of g.hooks ?? []) if (h.type === 'command' && /policy\.cjs/.test(h.command)) return { command: h.command, note: null };
    }
  } catch {
    // Falls through to the plain command.
  }
  return { command: fallback, note: `policy init gave no command (exit ${r.status}: ${(r.stderr || '').trim().split('\n')[0]}); using ${fallback}` };
}

/** A PEM bundle for NODE_EXTRA_CA_CERTS: the system's, else Node's own roots written out. */
export function caBundle(tmp) {
  for (const file of ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem']) {
    if (existsSync(file)) return file;
  }
  const file = join(tmp, 'ca-bundle.pem');
  writeFileSync(file, `${rootCertificates.join('\n')}\n`);
  return file;
}

const PACKS_POLICY = 'version: 1\ninclude: [ai-team, dia, security-guard]\n';

/** Both projects: the shipped packs together, and a generated 1,000-rule policy. */
export function makeProjects(repo, tmp, env, ruleCount = 1000) {
  const packs = project(join(tmp, 'packs'), PACKS_POLICY);
  const big = project(join(tmp, 'rules1000'), JSON.stringify(generatedPolicy(ruleCount), null, 1));
  return [
    { name: 'shipped packs', key: 'packs', dir: packs, events: events(packs, 'rm -rf /'), ...installedCommand(repo, packs, { ...env, CLAUDE_PROJECT_DIR: packs }) },
    { name: `${ruleCount} rules`, key: 'rules1000', dir: big, events: events(big, 'deploy-svc-501 --prod --yes'), ...installedCommand(repo, big, { ...env, CLAUDE_PROJECT_DIR: big }) },
  ];
}

/**
 * Suites of `total` cases in all: the shipped packs' own suites, their cases repeated
 * (renamed) until the total is reached, pointing at the packs by absolute path.
 */
export function makeSuites(repo, tmp, total = 10000) {
  const requireHere = createRequire(join(repo, 'package.json'));
  const YAML = requireHere('yaml');
  const dir = join(tmp, 'suites');
  mkdirSync(dir, { recursive: true });
  const sources = readdirSync(join(repo, 'policies', 'tests')).filter((f) => f.endsWith('.test.yaml')).sort();
  let written = 0;
  sources.forEach((name, n) => {
    const file = join(repo, 'policies', 'tests', name);
    const suite = YAML.parse(readFileSync(file, 'utf8'));
    const policies = [].concat(suite.policy).map((p) => join(repo, 'policies', 'tests', p));
    const base = suite.cases.filter((c) => c.event_file === undefined);
    const want = n === sources.length - 1 ? total - written : Math.round(total / sources.length);
    const cases = Array.from({ length: want }, (_, i) => ({ ...base[i % base.length], name: `${base[i % base.length].name} #${i}` }));
    written += cases.length;
    writeFileSync(join(dir, name), JSON.stringify({ ...suite, policy: policies, cases }, null, 1));
  });
  return { dir, cases: written };
}

/** The memory project's policy: seed 003's layer in three rules (record, recall summaries, search). */
const MEMORY_POLICY = `version: 1
rules:
  - id: observe
    on: PostToolUse
    tools: [Write, Edit, Bash]
    record:
      kind: observation
      importance: 0.7
      text: "{{tool}} {{paths}}{{command}}"
      fields: { tool: "{{tool}}", paths: "{{paths}}" }
  - id: recall-summaries
    on: SessionStart
    let:
      earlier: { summaries: 3, budget_tokens: 500 }
    context: "📝 이전 세션 컨텍스트:\\n{{earlier}}"
  - id: related
    on: UserPromptSubmit
    let:
      found: { search: "{{prompt}}", limit: 3, min_relevance: 0.3 }
    context: "🔍 관련 메모리 발견:\\n{{found}}"
`;

const TOPICS = ['jwt auth middleware', 'user model schema', 'error handling', 'payment webhook', 'rate limiter', 'search index', 'email templates', 'feature flags'];

/**
 * The shipped packs again, in a folder of their own, for the conditions that edit the
 * policy before each run: edited in the packs project itself, every round would rebuild
 * its cache, and its other events would each be timed as the first of their kind after an
 * edit (views cut from the full artefact) instead of as the steady state they stand for.
 */
export function makeEditProject(repo, tmp, env) {
  const dir = project(join(tmp, 'packs-edit'), PACKS_POLICY);
  return { name: 'shipped packs (edited)', key: 'packs-edit', dir, events: events(dir, 'rm -rf /'), ...installedCommand(repo, dir, { ...env, CLAUDE_PROJECT_DIR: dir }) };
}

/**
 * The packs project again, run by a copy of the installation (bin, dist, the packs; its
 * node_modules linked): the V8 code caches live in the installation (<package>/.code-cache),
 * so the first event ever is timed by emptying the copy's folder, not the one every other
 * condition's runner uses.
 */
export function makeColdProject(repo, tmp, env) {
  const install = join(tmp, 'cold-install');
  for (const part of ['bin', 'dist', 'policies', 'package.json']) cpSync(join(repo, part), join(install, part), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(install, 'node_modules'));
  const dir = project(join(tmp, 'packs-cold'), PACKS_POLICY);
  return { name: 'shipped packs (cold)', key: 'packs-cold', dir, install, events: events(dir, 'rm -rf /'), ...installedCommand(install, dir, { ...env, CLAUDE_PROJECT_DIR: dir }) };
}

/**
 * A project whose memory store already holds `records` records of 40 earlier sessions
 * (each with a summary), indexed, as after weeks of use; and its four events: a recording
 * PostToolUse, a PostToolUse no rule records (the same project's baseline), a SessionStart
 * that recalls summaries and a UserPromptSubmit that searches.
 */
export function makeMemoryProject(repo, tmp, env, records = 2000) {
  const dir = join(tmp, 'memory');
  write(join(dir, '.claude', 'policies.yaml'), MEMORY_POLICY);
  const store = join(dir, '.claude', 'hookpolicy', 'memory');
  mkdirSync(store, { recursive: true, mode: 0o700 });
  const start = Date.now() - 7 * 86_400_000;
  const lines = [];
  for (let i = 0; i < records; i++) {
    const session = `past-${String(Math.floor((i * 40) / records)).padStart(2, '0')}`;
    const topic = TOPICS[i % TOPICS.length];
    const last = Math.floor(((i + 1) * 40) / records) !== Math.floor((i * 40) / records);
    const common = { at: new Date(start + i * 60_000).toISOString(), session, agent: null };
    lines.push({ ...common, event: 'PostToolUse', rule: 'observe', kind: 'observation', importance: 0.7, text: `Edit src/${topic.replace(/ /g, '-')}/part-${i}.ts (${topic})`, fields: { tool: 'Edit' } });
    if (last) lines.push({ ...common, event: 'SessionEnd', rule: 'summary', kind: 'summary', importance: 0.8, text: `${topic}: ${1 + (i % 5)} files changed, tests pass`, fields: {} });
  }
  writeFileSync(join(store, 'journal.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const penv = { ...env, CLAUDE_PROJECT_DIR: dir };
  // Indexed once, as earlier sessions' readers left it.
  spawnSync(process.execPath, [join(repo, 'bin', 'policy.cjs'), 'memory', 'list', '--limit', '1'], { env: penv, cwd: dir });
  const common = { session_id: 'bench-memory', transcript_path: join(dir, '.claude', 'transcript.jsonl'), cwd: dir };
  const post = (name, input) => ({ ...common, hook_event_name: 'PostToolUse', tool_name: name, tool_input: input, tool_response: { stdout: '' }, tool_use_id: 'toolu_bench', duration_ms: 12 });
  return {
    name: 'memory store', key: 'memory', dir,
    events: {
      record: post('Bash', { command: 'npm run build', description: 'build' }),
      quiet: post('Read', { file_path: join(dir, 'src', 'a.ts') }),
      summaries: { ...common, hook_event_name: 'SessionStart', source: 'startup' },
      search: { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'fix the jwt auth middleware error handling' },
    },
    ...installedCommand(repo, dir, penv),
  };
}
