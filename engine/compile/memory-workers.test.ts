import * as fs from 'fs';
import * as path from 'path';
import { build, compiled, lines, where } from './test-support';

const memory = (...ls: string[]) => compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  memory:', ...ls) })).settings.memory;

describe('settings.memory.summarizer and embeddings', () => {
  test('the headless CLI: model haiku, 120 s, 24,000 characters by default', () => {
    expect(memory('    summarizer: { command: claude }')?.summarizer).toEqual({ via: 'command', command: 'claude', model: 'haiku', timeoutMs: 120_000, maxPromptChars: 24_000 });
    expect(memory('    summarizer: { command: bin/claude, model: claude-haiku-4-5, timeout_ms: 5000, max_prompt_chars: 2000, prompt: "Résume." }')?.summarizer)
      .toEqual({ via: 'command', command: 'bin/claude', model: 'claude-haiku-4-5', timeoutMs: 5000, maxPromptChars: 2000, prompt: 'Résume.' });
  });

  test('an endpoint: anthropic by default, the key by the name of its variable', () => {
    expect(memory('    summarizer: { url: "https://api.anthropic.com", model: claude-haiku-4-5, key_env: ANTHROPIC_API_KEY }')?.summarizer).toEqual({
      via: 'api', api: 'anthropic', url: 'https://api.anthropic.com', model: 'claude-haiku-4-5', keyEnv: 'ANTHROPIC_API_KEY', timeoutMs: 60_000, maxTokens: 600, maxPromptChars: 24_000,
    });
    expect(memory('    summarizer: { url: "http://127.0.0.1:11434/v1", api: openai, model: llama3, max_tokens: 200 }')?.summarizer)
      .toMatchObject({ via: 'api', api: 'openai', keyEnv: null, maxTokens: 200 });
  });

  test('embeddings: 1 s for a query, similarity 0.5 by default', () => {
    expect(memory('    embeddings: { url: "http://127.0.0.1:11434/v1", model: nomic-embed-text }')?.embeddings)
      .toEqual({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', keyEnv: null, timeoutMs: 1000, minSimilarity: 0.5 });
    expect(memory('    embeddings: { url: "https://e.example", model: m, key_env: OPENAI_API_KEY, timeout_ms: 300, min_similarity: 0.7 }')?.embeddings)
      .toEqual({ url: 'https://e.example', model: 'm', keyEnv: 'OPENAI_API_KEY', timeoutMs: 300, minSimilarity: 0.7 });
  });

  test('absent: neither', () => {
    expect(memory('    retention_days: 3')).toEqual({ dir: '.claude/hookpolicy/memory', retentionDays: 3, maxRecords: 20000, privacy: ['*.env', '*password*', '*secret*', '*api_key*'] });
  });

  test('only a root file sets them: an included file (or a pack) cannot send the records anywhere', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]'),
      'inc.yaml': lines('version: 1', 'settings:', '  memory:', '    summarizer: { url: "https://elsewhere.example", model: m }', '    embeddings: { url: "https://elsewhere.example", model: m }'),
    }));
    expect(policy.settings.memory?.summarizer).toBeUndefined();
    expect(policy.settings.memory?.embeddings).toBeUndefined();
  });

  test.each([
    ['a key written in the policy', '    summarizer: { url: "https://api.anthropic.com", model: m, key: sk-ant-123 }', 'schema-unknown-key'],
    ['a key where its variable\'s name goes', '    summarizer: { url: "https://api.anthropic.com", model: m, key_env: sk-ant-api03-abc }', 'schema-invalid'],
    ['both command and url', '    summarizer: { command: claude, url: "https://api.anthropic.com", model: m }', 'schema-invalid'],
    ['neither', '    summarizer: { model: m }', 'schema-required'],
    ['an endpoint without a model', '    summarizer: { url: "https://api.anthropic.com" }', 'schema-required'],
    ['an endpoint\'s key with the CLI', '    summarizer: { command: claude, key_env: K }', 'schema-invalid'],
    ['an api that is not one', '    summarizer: { url: "https://x.example", api: gemini, model: m }', 'schema-enum'],
    ['a url that is not http', '    summarizer: { url: "file:///etc/passwd", model: m }', 'schema-invalid'],
    ['embeddings without a model', '    embeddings: { url: "https://x.example" }', 'schema-required'],
    ['an embeddings wait past 5 s', '    embeddings: { url: "https://x.example", model: m, timeout_ms: 60000 }', 'schema-invalid'],
  ])('%s is an error', (_, line, code) => {
    const result = build({ 'p.yaml': lines('version: 1', 'settings:', '  memory:', line) });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.code)).toContain(code);
    expect(errors.every((d) => d.line === 4)).toBe(true);
    expect(errors.map(where).length).toBeGreaterThan(0);
  });
});

describe('docs/memory.md', () => {
  it('its example of prose summaries and embeddings builds, as it says', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'memory.md'), 'utf8');
    const section = doc.split('## Prose summaries and embeddings')[1];
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1];
    const policy = compiled(build({ 'p.yaml': `version: 1\n${yaml}` }));
    expect(policy.settings.memory?.summarizer).toMatchObject({ via: 'command', command: 'claude', model: 'haiku' });
    expect(policy.settings.memory?.embeddings).toMatchObject({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', timeoutMs: 1000 });
    const commented = yaml.split('\n').find((l) => l.includes('# summarizer: { url'))!.replace('# summarizer', 'summarizer');
    const endpoint = compiled(build({ 'p.yaml': `version: 1\nsettings:\n  memory:\n${commented}\n` }));
    expect(endpoint.settings.memory?.summarizer).toMatchObject({ via: 'api', api: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY' });
  });
});
