/**
 * Entry of dist/sandbox.cjs, the sandbox of `unparsable: sandbox` (docs/paths.md#the-sandbox).
 *
 *   sandbox.cjs run SPEC COMMAND      what a sandboxed Bash call runs (updatedInput.command)
 *
 * It makes a private temp folder, starts dist/sandbox-inside.cjs under `unshare` (a user, mount and PID
 * namespace of its own), which lays an overlay over the project, runs COMMAND there as
 * this user and lists what it changed. Back outside, on the real project, each change is
 * judged as a Write by the same agent (engine/host/sandbox/judge.ts): what the rules that
 * asked for the sandbox, or self-protection, refuse is discarded and said on stderr (and
 * logged as a deny); the rest is made in the project. The exit code is the command's.
 * When the sandbox cannot start, the command does not run, and the hook asks about such
 * commands for the next 24 hours (launcher.ts).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { recordDecision } from '../engine/host/decision-log';
import { createFileFacts } from '../engine/host/file-facts';
import { commitChanges } from '../engine/host/sandbox/commit';
import type { Change } from '../engine/host/sandbox/changes';
import type { InsideReport, InsideSpec } from '../engine/host/sandbox/inside';
import { judgeChanges, type Verdict } from '../engine/host/sandbox/judge';
import { UNAVAILABLE_FILE, unavailableNoteFolder } from '../engine/host/sandbox/launcher';
import { decodeSpec, type SandboxSpec } from '../engine/host/sandbox/spec';
import { resolveAgent } from '../engine/evaluate/agent';
import type { CompiledPolicy, Decision, HookEvent } from '../engine/types';
import { choosePolicyFiles } from '../engine/host/discover';
import { loadChosenPolicy } from './hook';

const PREFIX = 'hookpolicy sandbox: ';
/** How many discarded paths the message names before "and N more". */
const SHOWN = 8;

/**
 * Runs one mode; resolves to the exit code.
 * @example main(['run', spec, 'npm test']) // the command's exit code
 */
export async function main(argv: string[]): Promise<number> {
  const [mode, word, command] = argv;
  const spec = word ? decodeSpec(word) : null;
  if (mode !== 'run' || !spec || typeof command !== 'string') {
    process.stderr.write(`${PREFIX}usage: sandbox.cjs run SPEC COMMAND (written by policy hook; the command did not run)\n`);
    return 2;
  }
  return run(spec, command);
}

async function run(spec: SandboxSpec, command: string): Promise<number> {
  sweepOldFolders();
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-sandbox-'));
  try {
    const folders = { upper: path.join(temp, 'upper'), work: path.join(temp, 'work'), lower: path.join(temp, 'lower') };
    for (const dir of Object.values(folders)) fs.mkdirSync(dir, { mode: 0o700 });
    const insideSpec: InsideSpec = {
      project: spec.project, ...folders, cwd: process.cwd(),
      uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, shell: shellFor(process.env.SHELL), command,
    };
    const report = await runInNamespaces(insideSpec);
    if ('setup' in report) return unavailable(report.setup);
    const kept = await settle(spec, command, report.changes, folders.upper);
    process.stderr.write(kept);
    return report.status ?? 128 + (report.signal ? (os.constants.signals as Record<string, number>)[report.signal] ?? 1 : 1);
  } finally {
    removeFolder(temp);
  }
}

/** `inside`, under unshare: a user namespace (root there), its own mounts, its own PIDs. */
function runInNamespaces(spec: InsideSpec): Promise<InsideReport> {
  return new Promise((resolve) => {
    const word = Buffer.from(JSON.stringify(spec), 'utf8').toString('base64url');
    const args = ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--mount-proc', '--', process.execPath, path.join(__dirname, 'sandbox-inside.cjs'), word];
    const child = spawn('unshare', args, { stdio: ['inherit', 'inherit', 'inherit', 'pipe'] });
    const chunks: Buffer[] = [];
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (e) => resolve({ setup: `unshare could not start: ${e.message}` }));
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as InsideReport);
      } catch {
        resolve({ setup: `unshare ended (exit ${code}) before the sandbox was set up` });
      }
    });
  });
}

/** Judges the changes, makes the kept ones, logs the discarded ones; the stderr text. */
async function settle(spec: SandboxSpec, command: string, changes: Change[], upper: string): Promise<string> {
  if (changes.length === 0) return '';
  const env = process.env;
  const subject: HookEvent = { ...spec.event, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(spec.project, '.'), content: '' } };
  const choice = spec.roots.length > 0 ? { roots: spec.roots, requested: [] } : choosePolicyFiles({ configs: [], env, projectRoot: spec.project });
  const loaded = loadChosenPolicy({ env }, choice, spec.project, subject).settled.loaded;
  if (!loaded.policy) {
    return `${PREFIX}the policy could not be loaded to judge what this command wrote, so all of it (${changes.length} change(s)) was discarded: ${loaded.diagnostics.map((d) => d.message).join('; ')}\n`;
  }
  const verdicts = await judgeChanges(loaded.policy, spec, changes, createFileFacts(spec.project), env);
  const kept = verdicts.filter((v) => v.refused === null).map((v) => v.change);
  const failed = commitChanges(spec.project, upper, kept);
  const refused = verdicts.filter((v) => v.refused !== null);
  if (refused.length > 0) logDiscarded(loaded.policy, spec, command, refused);
  return describe(refused, failed, kept.length);
}

function describe(refused: Verdict[], failed: Array<{ change: Change; error: string }>, kept: number): string {
  const lines: string[] = [];
  if (refused.length > 0) {
    const git = (p: string) => p === '.git' || p.startsWith('.git/');
    const names = refused.map((v) => v.change.path).filter((p) => !git(p));
    const bookkeeping = refused.length - names.length;
    const shown = [
      names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : ''),
      ...(bookkeeping > 0 ? [`git's bookkeeping of it (${bookkeeping} file(s) under .git/)`] : []),
    ].filter(Boolean).join('; ');
    lines.push(`${PREFIX}this command ran in a sandbox; what it wrote that you may not write was discarded (${shown}); ${kept} other change(s) were kept.`);
    // One reason per rule: the message of its first refusal (a message names the path it caught).
    const byRules = new Map<string, string>();
    for (const v of refused) if (!byRules.has(v.refused!.rules.join(','))) byRules.set(v.refused!.rules.join(','), v.refused!.message);
    for (const message of byRules.values()) lines.push(`  ${message.split('\n')[0]}`);
  }
  for (const f of failed) lines.push(`${PREFIX}could not write ${f.change.path}: ${f.error}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** One decision-log record for the discarded writes: a deny by the rules that refused them. */
function logDiscarded(policy: CompiledPolicy, spec: SandboxSpec, command: string, refused: Verdict[]): void {
  const event: HookEvent = { ...spec.event, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } };
  const rules = [...new Set(refused.flatMap((v) => v.refused!.rules))];
  const reason = `The sandboxed command wrote ${loggedPaths(refused).length} path(s) its lane does not allow; they were discarded. ${refused[0].refused!.message}`;
  const hits = rules.map((id) => ({ id, outcome: 'deny' as const, message: reason, source: { file: '(sandbox)', line: 0, column: 0 } }));
  const decision: Decision = {
    event: 'PreToolUse', agent: resolveAgent(policy.agents, event), tool: 'Bash', outcome: 'deny', reason, decidedBy: hits, hits,
    contexts: [], warnings: [], trace: [], bypass: null, errors: [], paths: loggedPaths(refused),
  };
  for (const problem of recordDecision({ decision, event, policy, projectRoot: spec.project, now: new Date(), env: process.env })) {
    process.stderr.write(`${PREFIX}${problem.message}\n`);
  }
}

/** The discarded paths a record lists: the files, not git's bookkeeping that followed them (unless that is all). */
function loggedPaths(refused: Verdict[]): string[] {
  const all = refused.map((v) => v.change.path);
  const files = all.filter((p) => p !== '.git' && !p.startsWith('.git/'));
  return files.length > 0 ? files : all;
}

/** The command did not run: said, and noted so the hook asks instead for a while. */
function unavailable(why: string): number {
  const dir = unavailableNoteFolder(process.env);
  if (dir !== null) {
    try {
      fs.writeFileSync(path.join(dir, UNAVAILABLE_FILE), `${why}\n`, { mode: 0o600 });
    } catch {
      // the note is a convenience
    }
  }
  process.stderr.write(`${PREFIX}the sandbox could not start (${why}), so the command did not run. For the next 24 hours hookpolicy asks about such commands instead; run it again to be asked.\n`);
  return 1;
}

/** The shell the Bash tool runs commands with: bash or zsh from $SHELL, else bash. */
function shellFor(shell: string | undefined): string {
  if (shell && /\/(bash|zsh)$/.test(shell) && fs.existsSync(shell)) return shell;
  return fs.existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

/** A temp folder removed, folders the command made unwritable included. */
function removeFolder(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    try {
      fs.chmodSync(dir, 0o700);
      for (const entry of fs.readdirSync(dir, { recursive: true }) as string[]) {
        try {
          if (fs.lstatSync(path.join(dir, entry)).isDirectory()) fs.chmodSync(path.join(dir, entry), 0o700);
        } catch {
          // gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // left for sweepOldFolders
    }
  }
}

/** Temp folders of sandboxes that ended without cleaning up (killed), a day old or more. */
function sweepOldFolders(): void {
  const tmp = os.tmpdir();
  let names: string[];
  try {
    names = fs.readdirSync(tmp).filter((n) => n.startsWith('hookpolicy-sandbox-'));
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    try {
      const stat = fs.lstatSync(path.join(tmp, name));
      if (stat.isDirectory() && stat.uid === uid && Date.now() - stat.mtimeMs > 24 * 3600 * 1000) removeFolder(path.join(tmp, name));
    } catch {
      // another sandbox's, or gone
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (e: unknown) => {
    process.stderr.write(`${PREFIX}${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
