import { inFreshProcess } from '../../test/support/fresh-process';
import { prefilterOf } from './regex-prefilter';
import { requiredAlternatives, requiredLiteral, requiredLiterals } from './required-literal';

type PrefilterModule = typeof import('./regex-prefilter');

/** Runs `run` as a new process would: the remembered prefilters are per process. */
const inProcess = <T>(run: (m: PrefilterModule) => T): T => inFreshProcess(() => require('./regex-prefilter') as PrefilterModule, run);

describe('prefilterOf', () => {
  it.each([
    ['\\bgit\\s+push\\b.*--force', ''],
    ['\\b(?:curl|wget)\\b.*\\|\\s*sh', ''],
    ['\\bgit\\s+push\\b[^;&|]*\\s\\+(?:main|master)', ''],
    ['DROP\\s+TABLE', 'i'],
    ['a|b', ''],
    ['^rm\\s', ''],
  ])('is what the pattern requires, read from it: %s /%s', (source, flags) => {
    const literal = requiredLiteral(source, flags);
    const alternatives = requiredAlternatives(source, flags);
    const found = prefilterOf(source, flags);
    if (found.anyOf) expect(found.anyOf).toEqual(alternatives);
    else expect(found.literal ?? null).toBe(literal);
    const others = requiredLiterals(source, flags).filter((l) => !(found.literal ?? '').includes(l));
    expect(found.allOf ?? []).toEqual(others);
  });

  it('gives each caller arrays of its own', () => {
    const a = prefilterOf('\\b(?:curl|wget)\\b.*\\|\\s*sh', '');
    const b = prefilterOf('\\b(?:curl|wget)\\b.*\\|\\s*sh', '');
    expect(a).toEqual(b);
    expect(a.anyOf).not.toBe(b.anyOf);
  });

  it('hands what it worked out to the next process, which answers with it', () => {
    const kept = inProcess((m) => {
      m.prefilterOf('^rm\\s', '');
      return m.regexPrefilters();
    });
    expect(kept).toEqual([['/^rm\\s', prefilterOf('^rm\\s', '')]]);
    // What it is handed is what it answers: the cache that keeps them is trusted as the compiled policy is.
    inProcess((m) => {
      m.rememberRegexPrefilters([['/^rm\\s', { literal: 'planted' }]]);
      expect(m.prefilterOf('^rm\\s', '')).toEqual({ literal: 'planted' });
      expect(m.prefilterOf('^rm\\s', 'i')).toEqual(prefilterOf('^rm\\s', 'i'));
    });
  });
});
