import * as http from 'http';
import type { AddressInfo } from 'net';
import { MAX_WEBHOOK_TIMEOUT_MS, postRecord, webhookTimeout } from './webhook-post';

let server: http.Server;
let url: string;
const received: Array<{ method?: string; type?: string; auth?: string; body: string }> = [];
let hang = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      received.push({ method: req.method, type: req.headers['content-type'], auth: req.headers.authorization, body });
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('POSTs the record as JSON with the configured headers', async () => {
  hang = false;
  const status = await postRecord({ webhook: { url, timeoutMs: 2000, headers: { Authorization: 'Bearer t' } }, record: { outcome: 'deny' } });
  expect(status).toBe(200);
  expect(received.at(-1)).toEqual({ method: 'POST', type: 'application/json', auth: 'Bearer t', body: '{"outcome":"deny"}' });
});

it('gives up after timeoutMs when the server never answers', async () => {
  hang = true;
  const start = Date.now();
  expect(await postRecord({ webhook: { url, timeoutMs: 200, headers: {} }, record: {} })).toBeNull();
  expect(Date.now() - start).toBeLessThan(1500);
});

it('resolves null for a bad URL or a refused connection', async () => {
  expect(await postRecord({ webhook: { url: 'not a url', timeoutMs: 200, headers: {} }, record: {} })).toBeNull();
  expect(await postRecord({ webhook: { url: 'http://127.0.0.1:1/', timeoutMs: 1000, headers: {} }, record: {} })).toBeNull();
});

it('caps timeout_ms at MAX_WEBHOOK_TIMEOUT_MS', () => {
  expect(MAX_WEBHOOK_TIMEOUT_MS).toBe(10_000);
  expect(webhookTimeout(600_000)).toBe(10_000);
  expect(webhookTimeout(200)).toBe(200);
  expect(webhookTimeout(undefined)).toBe(1000);
  expect(webhookTimeout(-5)).toBe(1000);
});
