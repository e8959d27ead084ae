// Running a hook the way Claude Code does: `sh -c '<command>'`, the event on stdin,
// timed from spawn to the close of the child's output; and its peak memory.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * One run: { ms, stdout, stderr, code }. The clock starts before spawn and stops when the
 * shell has exited and its output is closed, as Claude Code waits for it.
 */
export function timedRun(command, stdin, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, stdout, stderr, code }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/**
 * How peak RSS is measured: python3's resource.getrusage(RUSAGE_CHILDREN) after the shell
 * (and the node it started) has been waited for gives the largest ru_maxrss of them, in
 * KiB on Linux; else GNU time's %M; else nothing.
 */
export function rssMethod() {
  if (spawnSync('python3', ['-c', 'import resource'], { stdio: 'ignore' }).status === 0) return 'python3 getrusage(RUSAGE_CHILDREN).ru_maxrss';
  if (existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { stdio: 'ignore' }).status === 0) return '/usr/bin/time -f %M';
  return null;
}

const PY = [
  'import resource, subprocess, sys',
  'data = sys.stdin.buffer.read()',
  "subprocess.run(['sh', '-c', sys.argv[1]], input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)",
  'print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)',
].join('\n');

/** Peak RSS in MiB of one run of `command`, or null when no method is available. */
export function peakRssMiB(method, command, stdin, env) {
  if (method === null) return null;
  if (method.startsWith('python3')) {
    const r = spawnSync('python3', ['-c', PY, command], { input: stdin, env, encoding: 'utf8' });
    const kib = Number(r.stdout.trim());
    return Number.isFinite(kib) && kib > 0 ? kib / 1024 : null;
  }
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'sh', '-c', command], { input: stdin, env, encoding: 'utf8' });
  const kib = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kib) && kib > 0 ? kib / 1024 : null;
}
