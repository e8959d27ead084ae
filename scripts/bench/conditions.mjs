// The timed conditions of the command-mode section, and what each event kind must answer.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every timed condition: the floor, each project x event x CA setting, the memory project's
 * events, the first event after an edit (in `edited`, a copy of the packs project: fixtures.mjs
 * makeEditProject), and the levers turned off (the first event ever in `cold`, another copy run
 * by a copy of the installation: makeColdProject).
 */
export function conditions(repo, projects, env, ca, tmp, memory, edited, cold) {
  const node = process.execPath;
  const bin = join(repo, 'bin', 'policy.cjs');
  const withCa = { NODE_EXTRA_CA_CERTS: ca };
  const kindLabel = {
    none: 'matches nothing', deny: 'denies', require: 'requires files', context: 'injects context',
    redirect: 'Bash with a redirection', heredoc: 'Bash with a here-document', write: 'Write src/app.ts',
    record: 'records (PostToolUse)', quiet: 'records nothing (PostToolUse)', summaries: 'recalls summaries (SessionStart)', search: 'searches memory (UserPromptSubmit)',
  };
  const list = [
    { id: 'floor', label: "floor: node -e ''", command: `${node} -e ''`, env, stdin: JSON.stringify(projects[0].events.none) },
    { id: 'floor+ca', label: "floor, NODE_EXTRA_CA_CERTS set", command: `${node} -e ''`, env: { ...env, ...withCa }, stdin: JSON.stringify(projects[0].events.none) },
    // What any Node runner pays before it decides anything (docs/performance.md, "What 1.15x leaves").
    { id: 'ref/answer', label: 'reference: node reads the event, answers {} (no hookpolicy)', command: `${node} -e "const fs = require('fs'); JSON.parse(fs.readFileSync(0, 'utf8')); fs.writeSync(1, '{}')"`, env, stdin: JSON.stringify(projects[0].events.none) },
    { id: 'ref/load', label: 'reference: node loads dist/hook.cjs + shell.cjs, runs nothing', command: `${node} -e "require(${JSON.stringify(join(repo, 'dist', 'hook.cjs'))}); require(${JSON.stringify(join(repo, 'dist', 'shell.cjs'))})"`, env, stdin: JSON.stringify(projects[0].events.none) },
  ];
  for (const p of projects) {
    const penv = { ...env, CLAUDE_PROJECT_DIR: p.dir };
    for (const [kind, event] of Object.entries(p.events)) {
      const stdin = JSON.stringify(event);
      list.push({ id: `${p.key}/${kind}`, label: `${p.name}, ${kindLabel[kind]}`, command: p.command, env: penv, stdin, kind });
      list.push({ id: `${p.key}/${kind}+ca`, label: `${p.name}, ${kindLabel[kind]}, CA set`, command: p.command, env: { ...penv, ...withCa }, stdin, kind });
    }
  }
  // Recording and recall: interleaved with the rest, so each recall first ingests what was recorded since.
  if (memory) {
    const menv = { ...env, CLAUDE_PROJECT_DIR: memory.dir };
    for (const [kind, event] of Object.entries(memory.events)) {
      list.push({ id: `memory/${kind}`, label: `${memory.name}, ${kindLabel[kind]}`, command: memory.command, env: menv, stdin: JSON.stringify(event), kind });
    }
  }
  const packs = projects[0];
  const penv = { ...env, CLAUDE_PROJECT_DIR: packs.dir };
  const stdin = JSON.stringify(packs.events.none);
  let fresh = 0;
  const freshCache = () => {
    const dir = join(tmp, `fresh-${fresh++}`);
    mkdirSync(dir, { recursive: true });
    return { HOOKPOLICY_CACHE_DIR: dir };
  };
  // The first event ever: no policy cache, and the copied installation's code caches removed.
  const coldStart = () => {
    rmSync(join(cold.install, '.code-cache'), { recursive: true, force: true });
    return freshCache();
  };
  // The first event after a policy edit: the file changes before each run (the team's own
  // rule gets another message, as a team edits its policy: its document changes, not only
  // its text), so the runner finds its cache stale and compiles, as at the first call after
  // a save. In a project of its own (`edited`), so the packs project's other events stay steady.
  const eenv = { ...env, CLAUDE_PROJECT_DIR: edited.dir };
  const estdin = JSON.stringify(edited.events.none);
  const policyFile = join(edited.dir, '.claude', 'policies.yaml');
  const policyText = readFileSync(policyFile, 'utf8');
  let edits = 0;
  const editPolicy = () => {
    const rule = `rules:\n  - id: team-no-destroy\n    on: PreToolUse\n    tools: Bash\n    command: ['\\bterraform\\s+destroy\\b']\n`
      + `    deny: "Ask the platform team before destroying infrastructure (edit ${++edits})"\n`;
    writeFileSync(policyFile, `${policyText}${rule}`);
    return {};
  };
  // The same edit saved through `policy lint`, which leaves the runner's cache behind it (untimed).
  const editAndLint = () => {
    editPolicy();
    const r = spawnSync(node, [bin, 'lint', '--no-settings'], { cwd: edited.dir, env: eenv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`policy lint failed in the bench's packs project: ${r.stdout}${r.stderr}`);
    return {};
  };
  list.push(
    { id: 'edit/packs', label: 'shipped packs, first event after a policy edit', command: edited.command, env: eenv, stdin: estdin, kind: 'none', prepare: editPolicy },
    { id: 'edit-lint/packs', label: 'shipped packs, first event after an edit and policy lint', command: edited.command, env: eenv, stdin: estdin, kind: 'none', prepare: editAndLint },
    { id: 'lever/no-code-cache', label: 'lever off: no V8 code cache (packs, no match)', command: packs.command, env: { ...penv, HOOKPOLICY_CODE_CACHE: 'off' }, stdin, kind: 'none' },
    { id: 'lever/no-policy-cache', label: 'lever off: policy compiled every event (packs)', command: packs.command, env: penv, stdin, kind: 'none', prepare: freshCache },
    { id: 'lever/cold', label: 'lever off: no caches at all (first event ever)', command: cold.command, env: { ...env, CLAUDE_PROJECT_DIR: cold.dir }, stdin: JSON.stringify(cold.events.none), kind: 'none', prepare: coldStart },
    { id: 'lever/ca-no-env-u', label: 'lever off: CA set, NODE_EXTRA_CA_CERTS not cleared', command: `${node} ${bin} hook`, env: { ...penv, ...withCa }, stdin, kind: 'none' },
  );
  return list;
}

/** What each event kind must answer; a runner that answers otherwise would be measuring something else. */
export function answerProblem(kind, run) {
  if (run.code !== 0) return `exit ${run.code}: ${run.stderr.trim()}`;
  if (run.stderr !== '' && ['record', 'quiet', 'summaries', 'search'].includes(kind)) return `expected nothing on stderr, got ${run.stderr.trim()}`;
  if ((kind === 'none' || kind === 'record' || kind === 'quiet') && run.stdout !== '') return `expected no output, got ${run.stdout.trim()}`;
  if ((kind === 'redirect' || kind === 'heredoc') && run.stdout !== '') return `expected no output (the write is allowed), got ${run.stdout.trim()}`;
  if ((kind === 'summaries' || kind === 'search') && !/additionalContext/.test(run.stdout)) return `expected additionalContext, got ${run.stdout.trim() || '(nothing)'}`;
  if (kind === 'deny' && !/"permissionDecision":"deny"/.test(run.stdout)) return `expected a deny, got ${run.stdout.trim() || '(nothing)'}`;
  if (kind === 'require' && run.stdout !== '') return `expected no output (L1/L2 present), got ${run.stdout.trim()}`;
  if (kind === 'context' && !/additionalContext/.test(run.stdout)) return `expected additionalContext, got ${run.stdout.trim() || '(nothing)'}`;
  return null;
}
