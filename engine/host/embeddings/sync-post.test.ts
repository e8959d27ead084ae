import { spawn, type ChildProcess } from 'child_process';
import { postJsonSync } from './sync-post';

describe('postJsonSync', () => {
  // postJsonSync blocks this thread, so the server must live in another process.
  const SERVER = `
    const http = require('http');
    const server = http.createServer((q, s) => {
      let b = '';
      q.on('data', (c) => { b += c; });
      q.on('end', () => {
        if (q.url === '/silent') return;
        s.writeHead(201, { 'content-type': 'application/json' });
        s.end(JSON.stringify({ echo: JSON.parse(b), auth: q.headers.authorization || null }));
      });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
  `;
  let server: ChildProcess;
  let base: string;
  beforeAll(async () => {
    server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) => server.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim())));
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    server.kill();
  });

  it('gives the status and body of the answer', () => {
    expect(postJsonSync(`${base}/v1/embeddings`, { authorization: 'Bearer k' }, '{"input":["a"]}', 3000))
      .toEqual({ ok: true, status: 201, body: JSON.stringify({ echo: { input: ['a'] }, auth: 'Bearer k' }) });
  });

  it('a server that never answers: no answer, within the timeout (the thread\'s start-up included)', () => {
    const started = Date.now();
    expect(postJsonSync(`${base}/silent`, {}, '{}', 500)).toEqual({ ok: false, error: expect.stringMatching(/no answer within 500 ms/) });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a refused connection: at once', () => {
    expect(postJsonSync('http://127.0.0.1:9/v1/embeddings', {}, '{}', 2000)).toEqual({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
  });
});
