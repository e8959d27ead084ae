/**
 * For the log room's tests: a child process that appends records through the runner's own
 * append path (appendDecisionRecord), bundled once, so that tests can run many at once.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSync } from 'esbuild';

/**
 * Bundles into `dir` a script run as `node SCRIPT DIR WHO N`: it appends N records of
 * session WHO to DIR/decisions.jsonl, and exits 1 with the problem on stderr at the first.
 * @example spawn(process.execPath, [appendScript(tmp()), dir, 'p1', '40'])
 */
export function appendScript(dir: string): string {
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, `import { appendDecisionRecord } from ${JSON.stringify(path.join(__dirname, '..', 'decision-log'))};
const [dir, who, n] = process.argv.slice(2);
for (let i = 0; i < Number(n); i++) {
  const problem = appendDecisionRecord('decisions.jsonl', dir, { time: new Date().toISOString(), session_id: who, event: 'PreToolUse', tool: 'Bash', agent: null, outcome: 'deny', rules: ['r' + i], reason: null, paths: [], policy: [] });
  if (problem) { console.error(JSON.stringify(problem)); process.exit(1); }
}
`);
  const script = path.join(dir, 'append.cjs');
  buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'silent', external: ['pg', '@opentelemetry/*'] });
  return script;
}
