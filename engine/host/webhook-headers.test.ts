import * as http from 'http';
import type { AddressInfo } from 'net';
import { sendHeaders, webhookEnvProblem } from './webhook-headers';
import { postRecord } from './webhook-post';

const webhook = { headers: { Authorization: 'Bearer ${HP_TOKEN}', 'X-Team': 'red' }, allowedEnvVars: ['HP_TOKEN'] };

describe('sendHeaders and webhookEnvProblem', () => {
  it('fills the allowed variable from the environment given', () => {
    expect(sendHeaders(webhook, { HP_TOKEN: 's3cr3t' })).toEqual({ Authorization: 'Bearer s3cr3t', 'X-Team': 'red' });
    expect(webhookEnvProblem(webhook, { HP_TOKEN: 's3cr3t' })).toBeNull();
  });

  it.each([['unset', {}], ['empty', { HP_TOKEN: '' }], ['a line break', { HP_TOKEN: 'abc\r\nX-Evil: 1' }]])('%s: no headers, and the runner\'s warning names the variable, never a value', (_name, env) => {
    expect(sendHeaders(webhook, env)).toBeNull();
    const problem = webhookEnvProblem(webhook, env);
    expect(problem).toMatchObject({ code: 'webhook-env-unset', severity: 'warning' });
    expect(problem?.message).toContain('$HP_TOKEN');
    expect(problem?.message).not.toContain('abc');
  });

  it('a webhook without allowed variables sends its values as written', () => {
    expect(sendHeaders({ headers: { A: 'Bearer ${HP_TOKEN}' } }, { HP_TOKEN: 'x' })).toEqual({ A: 'Bearer ${HP_TOKEN}' });
  });
});

describe('postRecord with header variables', () => {
  let server: http.Server;
  let url: string;
  const seen: http.IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the value of the environment it is given', async () => {
    expect(await postRecord({ webhook: { url, timeoutMs: 2000, ...webhook }, record: { a: 1 } }, { HP_TOKEN: 's3cr3t' })).toBe(200);
    expect(seen.at(-1)?.authorization).toBe('Bearer s3cr3t');
  });

  it('sends nothing when the variable is missing (null: tried again later)', async () => {
    const before = seen.length;
    expect(await postRecord({ webhook: { url, timeoutMs: 2000, ...webhook }, record: {} }, {})).toBeNull();
    expect(seen.length).toBe(before);
  });

  it('a literal header value Node refuses: null, no throw, no timer left to fire', async () => {
    const result = await postRecord({ webhook: { url, timeoutMs: 50, headers: { 'X-Bad': 'a\nb' } }, record: {} }, {});
    expect(result).toBeNull();
    // A timer armed before the refused request would fire now and throw on the missing request.
    await new Promise((resolve) => setTimeout(resolve, 120));
  });
});
