import { startFakeModel, type FakeModelServer } from '../../../test/support/fake-model-server';
import type { CompiledApiSummarizer } from '../../types';
import { answerError, endpointUrl } from './http-post';
import { askEndpoint, chatAnswer, chatRequest } from './model-api';

const summarizer = (extra: Partial<CompiledApiSummarizer> = {}): CompiledApiSummarizer => ({
  via: 'api', api: 'anthropic', url: 'https://api.anthropic.com', model: 'claude-haiku-4-5', keyEnv: 'TEAM_KEY', timeoutMs: 5000, maxTokens: 600, maxPromptChars: 24_000, ...extra,
});

describe('endpointUrl', () => {
  it.each([
    ['https://api.anthropic.com', '/messages', 'https://api.anthropic.com/v1/messages'],
    ['https://api.anthropic.com/', '/messages', 'https://api.anthropic.com/v1/messages'],
    ['https://api.anthropic.com/v1/messages', '/messages', 'https://api.anthropic.com/v1/messages'],
    ['http://127.0.0.1:11434/v1', '/chat/completions', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['https://proxy.example/anthropic', '/messages', 'https://proxy.example/anthropic/v1/messages'],
    ['https://api.openai.com/v1/embeddings', '/embeddings', 'https://api.openai.com/v1/embeddings'],
  ] as const)('%s + %s', (url, endpoint, expected) => {
    expect(endpointUrl(url, endpoint)).toBe(expected);
  });
});

describe('chatRequest', () => {
  it('anthropic: /v1/messages, the key as x-api-key, the version header', () => {
    const r = chatRequest(summarizer(), 'Summarize', { TEAM_KEY: 'sk-ant-1' });
    expect(r).toEqual({
      url: 'https://api.anthropic.com/v1/messages',
      headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-1' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 600, messages: [{ role: 'user', content: 'Summarize' }] }),
    });
  });

  it('openai: /v1/chat/completions, the key as a Bearer token', () => {
    const r = chatRequest(summarizer({ api: 'openai', url: 'http://127.0.0.1:11434/v1' }), 'Summarize', { TEAM_KEY: 'sk-1' });
    expect(r).toMatchObject({ url: 'http://127.0.0.1:11434/v1/chat/completions', headers: { authorization: 'Bearer sk-1' } });
  });

  it('no key_env: no key sent; a named variable that is empty: no request', () => {
    expect(chatRequest(summarizer({ keyEnv: null }), 'p', {})).toMatchObject({ headers: { 'anthropic-version': '2023-06-01' } });
    expect(chatRequest(summarizer(), 'p', {})).toEqual({ error: 'the environment variable TEAM_KEY (key_env) is not set' });
  });
});

describe('chatAnswer', () => {
  it.each([
    ['anthropic text blocks', 'anthropic', 200, '{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"Built JWT."}]}', { ok: true, text: 'Built JWT.' }],
    ['openai first choice', 'openai', 200, '{"choices":[{"message":{"content":"Built JWT."}}]}', { ok: true, text: 'Built JWT.' }],
    ['an error status with the API\'s message', 'anthropic', 401, '{"type":"error","error":{"message":"invalid x-api-key"}}', { ok: false, error: 'the endpoint answered 401: invalid x-api-key' }],
    ['not JSON', 'openai', 200, '<html>', { ok: false, error: 'the endpoint\'s answer is not JSON' }],
    ['the other shape', 'anthropic', 200, '{"choices":[]}', { ok: false, error: 'the endpoint\'s answer has no text (not a Messages answer?)' }],
  ] as const)('%s', (_, api, status, body, expected) => {
    expect(chatAnswer(api, status, body)).toEqual(expected);
  });

  it('answerError cuts a long body and says only the status for an empty one', () => {
    expect(answerError(502, '')).toBe('the endpoint answered 502');
    expect(answerError(500, 'x'.repeat(500)).length).toBeLessThan(240);
  });
});

describe('askEndpoint against a fake server', () => {
  let model: FakeModelServer;
  beforeEach(async () => {
    model = await startFakeModel({ summary: 'Built the JWT middleware; fixed the expiry test; the refresh flow is open.' });
  });
  afterEach(() => model.close());

  it.each(['anthropic', 'openai'] as const)('%s: the summary, with the key from the named variable only', async (api) => {
    const answer = await askEndpoint(summarizer({ api, url: model.url }), 'Summarize this', { TEAM_KEY: 'sk-team' });
    expect(answer).toEqual({ ok: true, text: 'Built the JWT middleware; fixed the expiry test; the refresh flow is open.' });
    const [request] = model.requests;
    expect(request.path).toBe(api === 'anthropic' ? '/v1/messages' : '/v1/chat/completions');
    expect(request.body).toEqual({ model: 'claude-haiku-4-5', max_tokens: 600, messages: [{ role: 'user', content: 'Summarize this' }] });
    expect(api === 'anthropic' ? request.headers['x-api-key'] : request.headers.authorization).toBe(api === 'anthropic' ? 'sk-team' : 'Bearer sk-team');
  });

  it('an error status, a timeout and a refused connection are answers with a reason, never a throw', async () => {
    model.options.chatStatus = 529;
    expect(await askEndpoint(summarizer({ url: model.url }), 'p', { TEAM_KEY: 'k' })).toEqual({ ok: false, error: 'the endpoint answered 529: fake failure 529' });
    model.options.chatStatus = undefined;
    model.options.chatDelayMs = 5000;
    const started = Date.now();
    expect(await askEndpoint(summarizer({ url: model.url, timeoutMs: 1000 }), 'p', { TEAM_KEY: 'k' })).toEqual({ ok: false, error: 'no answer within 1000 ms' });
    expect(Date.now() - started).toBeLessThan(3000);
    const refused = await askEndpoint(summarizer({ url: 'http://127.0.0.1:9' }), 'p', { TEAM_KEY: 'k' });
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
  });
});
