/**
 * OpenTelemetry from a real session: the collector is set in the policy (`log.otlp`), since
 * Claude Code removes every OTEL_* variable from a hook's environment
 * (hook-environment.test.ts). A receiver in the session's network namespace writes what it
 * gets; the session's denied Write arrives as an OTLP log record and a span, the token from
 * the hook's environment in the request's header.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { say, tools } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';

/** A receiver as a program of its own: each request's path, authorization header and body, one JSON line each. */
const receiver = (port: number, out: string) => `
const fs = require('fs');
require('http').createServer((q, s) => {
  const chunks = [];
  q.on('data', (c) => chunks.push(c));
  q.on('end', () => {
    fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify({ path: q.url, auth: q.headers.authorization || null, body: Buffer.concat(chunks).toString('utf8') }) + '\\n');
    s.setHeader('content-type', 'application/json');
    s.end('{}');
  });
}).listen(${port}, '127.0.0.1');`;

type Attr = { key: string; value: Record<string, unknown> };
const text = (attrs: Attr[] | undefined, key: string) => attrs?.find((a) => a.key === key)?.value.stringValue;

describeRealClient('OpenTelemetry export from a session', () => {
  it('a denied Write arrives at the collector as a log record and a span, with the token from the environment', () => {
    const port = 40000 + Math.floor(Math.random() * 20000);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-otlp-')), 'received.jsonl');
    const run = runCase({
      policy: [
        'version: 1',
        'settings:',
        '  log:',
        '    otlp:',
        `      endpoint: http://127.0.0.1:${port}`,
        '      headers: { authorization: "Bearer ${HP_OTLP_TOKEN}" }',
        '      allowed_env_vars: [HP_OTLP_TOKEN]',
        'rules:',
        '  - id: no-env',
        '    on: PreToolUse',
        '    tools: Write',
        '    paths: { deny: [".env"] }',
        '    deny: "{{path}} holds secrets"',
        '',
      ].join('\n'),
      env: { HP_OTLP_TOKEN: 'otlp-token-7' },
      background: [{ argv: [process.execPath, '-e', receiver(port, out)], port }],
      // The exporter is detached: the receiver stays up until the span has come.
      linger: { file: out, until: ['/v1/traces'], timeoutMs: 30_000 },
      scenario: (dir) => ({ main: [tools({ name: 'Write', input: { file_path: path.join(dir, '.env'), content: 'X=1\n' } }), say('done')] }),
    });
    expect(run.project.exists('.env')).toBe(false);
    const requests = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { path: string; auth: string | null; body: string });
    expect(requests.map((r) => r.auth)).toEqual(requests.map(() => 'Bearer otlp-token-7'));
    const logs = requests.filter((r) => r.path === '/v1/logs').flatMap((r) => (JSON.parse(r.body).resourceLogs as Array<{ scopeLogs: Array<{ logRecords: Array<{ attributes: Attr[] }> }> }>).flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords)));
    const spans = requests.filter((r) => r.path === '/v1/traces').flatMap((r) => (JSON.parse(r.body).resourceSpans as Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Attr[] }> }> }>).flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const denied = logs.filter((l) => text(l.attributes, 'hookpolicy.outcome') === 'deny');
    expect(denied.map((l) => [text(l.attributes, 'hookpolicy.rule'), text(l.attributes, 'hookpolicy.tool'), text(l.attributes, 'hookpolicy.reason')])).toEqual([['no-env', 'Write', '.env holds secrets']]);
    expect(spans.some((sp) => text(sp.attributes, 'hookpolicy.outcome') === 'deny')).toBe(true);
  }, SESSION_TIMEOUT_MS);
});
