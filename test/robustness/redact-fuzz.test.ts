/**
 * Properties of the decision-log redaction over arbitrary text: it never throws, is
 * idempotent, removes a known-format secret wherever it sits between separators, and
 * stays linear on large adversarial input (it runs on every logged record).
 */
import fc from 'fast-check';
import { REDACTED, redactRecord, redactText } from '../../engine/host/redact';
import { fcParams } from '../support/fuzz-config';

const alnum = (n: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: n, maxLength: n });
const upperDigits = (n: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: n, maxLength: n });

/** Secrets in known formats, generated (never literal). */
const secret = fc.oneof(
  upperDigits(16).map((s) => `AKIA${s}`),
  alnum(36).map((s) => `ghp_${s}`),
  alnum(20).map((s) => `xoxb-${s}`),
  alnum(32).map((s) => `sk-${s}`),
  fc.tuple(alnum(12), alnum(12), alnum(12)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
);
/** Text around it; separated from it by a space so word boundaries hold. */
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom('export', 'curl -H "x"', 'API_KEY=', '\n'));

describe('redaction properties', () => {
  it('never throws and is idempotent', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), text), (t) => {
      const once = redactText(t, ['x+y', '(unclosed']);
      expect(redactText(once, ['x+y', '(unclosed'])).toBe(once);
    }), fcParams(2));
  });

  it('removes a known-format secret wherever it sits', () => {
    fc.assert(fc.property(text, secret, text, (before, s, after) => {
      const out = redactText(`${before} ${s} ${after}`);
      expect(out).not.toContain(s);
      expect(out).toContain(REDACTED);
    }), fcParams(2));
  });

  it('removes the value of a secret-named assignment, whatever the value', () => {
    const name = fc.constantFrom('API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'client_secret', 'AWS_SECRET_ACCESS_KEY',
      'DB_PASS', 'MY_SESSION', 'GH_PAT', 'x-auth', 'SESSION', 'KEY_2');
    const value = alnum(12);
    fc.assert(fc.property(text, name, value, fc.constantFrom('=', ': ', '="'), (before, n, v, sep) => {
      const out = redactText(`${before} ${n}${sep}${v}${sep.endsWith('"') ? '"' : ''} end`);
      expect(out).not.toContain(v);
    }), fcParams(2));
  });

  it('removes a credential from a URL, a header or a command line, wherever it sits', () => {
    // The forms that reached the log unredacted before (issue 12, section 5), each with a generated value.
    const value = fc.tuple(alnum(1), fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/'), minLength: 11, maxLength: 40 }))
      .map(([a, b]) => a + b);
    const form = fc.constantFrom<(v: string) => string>(
      (v) => `https://api.example.com/v1?access_token=${v}`,
      (v) => `https://api.example.com/v1?page=2&token=${v}&x=1`,
      (v) => `https://maps.example.com/api?key=${v}`,
      (v) => `https://x.example/a?apikey=${v}`,
      (v) => `https://x.example/a?api_key=${v}`,
      (v) => `https://a.blob.core.windows.net/c?sv=2020&sig=${v}`,
      (v) => `https://x.example/a?X-Amz-Signature=${v}`,
      (v) => `https://x.example/login?password=${v}`,
      (v) => `https://x.example/oauth?client_secret=${v}`,
      (v) => `//registry.npmjs.org/:_authToken=${v}`,
      (v) => `npm config set //registry.npmjs.org/:_authToken ${v}`,
      (v) => `-H 'Authorization: Bearer ${v}'`,
      (v) => `-H "Authorization: Basic ${v}"`,
      (v) => `-H 'Authorization: ${v}'`,
      (v) => `--password ${v}`,
      (v) => `--password=${v}`,
      (v) => `mysql -u root -p${v} db`,
      (v) => `sshpass -p ${v} ssh host`,
      (v) => `docker login -u bob -p ${v} registry`,
      (v) => `redis-cli -a ${v}`,
      (v) => `curl -u bob:${v} https://x.example`,
      // A `/` in a URL's password is percent-encoded (RFC 3986): a raw one would start the path.
      (v) => `postgres://admin:${v.replace(/\//g, '%2F')}@db:5432/x`,
      (v) => `cmd=DB_PASSWORD=${v} npm test`,
      (v) => `cmd:API_TOKEN=${v}`,
      (v) => `AccountKey=${v};EndpointSuffix=core`,
    );
    fc.assert(fc.property(text, form, value, text, (before, f, v, after) => {
      const line = `${before} ${f(v)} ${after}`;
      const out = redactText(line);
      expect(out).not.toContain(v.replace(/\//g, '%2F'));
      expect(out).not.toContain(v);
      expect(redactText(out)).toBe(out);
      expect(JSON.stringify(redactRecord({ reason: line }))).not.toContain(v);
    }), fcParams(2));
  });

  it('removes a JWT and a PEM block wherever they sit', () => {
    const b64 = (n: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: n, maxLength: n + 20 });
    const jwt = fc.tuple(b64(8), b64(8), b64(8)).map(([a, b, c]) => ({ secret: `${b}.${c}`, text: `eyJ${a}.eyJ${b}.${c}` }));
    const pem = fc.tuple(fc.constantFrom('RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', ''), alnum(24), fc.constantFrom('\n', '\\n'), fc.boolean())
      .map(([kind, body, nl, ended]) => ({ secret: body, text: `-----BEGIN ${kind}PRIVATE KEY-----${nl}${body}${nl}${ended ? `-----END ${kind}PRIVATE KEY-----` : ''}` }));
    fc.assert(fc.property(text, fc.oneof(jwt, pem), text, (before, s, after) => {
      expect(redactText(`${before} ${s.text} ${after}`)).not.toContain(s.secret);
    }), fcParams(2));
  });

  it('keeps a marker line whose name ends in an ordinary word, generic secret words before it included', () => {
    // `SESSION-CTX-MARKER: hello`: key, pass, pwd, auth, session, cookie, pat only count as the name's last part.
    const generic = ['KEY', 'PASS', 'PWD', 'AUTH', 'SESSION', 'COOKIE', 'PAT'];
    const ordinary = ['CTX', 'MARKER', 'MODE', 'ID', 'NOTE', 'POLICY', 'FILE', 'NAME', 'HINT', 'LEVEL'];
    const word = fc.constantFrom(...generic, ...ordinary);
    const name = fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(...ordinary), fc.constantFrom('-', '_'))
      .map(([head, last, sep]) => [...head, last].join(sep));
    const prose = fc.array(fc.constantFrom('hello', 'strict', 'on', 'off', 'renew', 'before', 'June', 'the', 'build', 'v2'), { minLength: 1, maxLength: 5 })
      .map((ws) => ws.join(' '));
    fc.assert(fc.property(name, fc.constantFrom(': ', ':', '=', ' = '), prose, fc.constantFrom('', 'context ', '(', '"'), (n, sep, v, lead) => {
      const line = `${lead}${n}${sep}${v}`;
      expect(redactText(line)).toBe(line);
      expect(redactRecord({ contexts: [line] })).toEqual({ contexts: [line] });
    }), fcParams(1));
  });

  it('redactRecord keeps the shape of any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const out = redactRecord(value);
      const shape = (v: unknown): unknown => (typeof v === 'string' ? 's' : Array.isArray(v) ? v.map(shape)
        : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : v);
      expect(shape(out)).toEqual(shape(value));
    }), fcParams(1));
  });

  it('redactRecord scrubs every string as redactText does: its one-look gate never skips a secret', () => {
    const secretish = fc.oneof(text, fc.constantFrom('API_KEY=abc123def', 'Bearer abcdefgh12345678', `ghp_${'a'.repeat(36)}`,
      'https://u:pw@host/x', 'line\nTOKEN=x', 'AKIA0123456789ABCDEF', 'sk-abcdefghijklmnopqrst', 'Session=1'));
    const record = fc.dictionary(fc.constantFrom('reason', 'paths', 'rules', 'contexts', 'agent'),
      fc.oneof(secretish, fc.array(secretish, { maxLength: 3 }), fc.constant(null)));
    fc.assert(fc.property(record, (value) => {
      const each = (v: unknown): unknown => (typeof v === 'string' ? redactText(v) : Array.isArray(v) ? v.map(each)
        : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, each(x)])) : v);
      expect(redactRecord(value)).toEqual(each(value));
    }), fcParams(1));
  });

  it.each([
    ['assignments', 'a=b '.repeat(500_000)],
    ['secret-named assignments', 'TOKEN='.repeat(300_000)],
    ['unclosed PEM headers', '-----BEGIN PRIVATE KEY-----'.repeat(40_000)],
    ['URL-like runs', 'http://a:'.repeat(200_000)],
    ['dotenv lines', 'A=1\n'.repeat(500_000)],
    ['one 2 MB word', 'x'.repeat(2_000_000)],
    ['nested assignments (cmd=API_KEY=...)', 'a='.repeat(1_000_000)],
    ['nested secret assignments after a colon', 'cmd:TOKEN='.repeat(200_000)],
    ['URL query runs', '?sig=&key=x'.repeat(180_000)],
    ['password flags of commands', 'mysql -p '.repeat(220_000)],
    ['curl -u runs', 'curl -u a:'.repeat(200_000)],
    ['Authorization headers', 'Authorization: '.repeat(130_000)],
    ['.npmrc token keys', ':_authToken '.repeat(160_000)],
  ])('stays fast on 2 MB of %s', (_name, input) => {
    const start = Date.now();
    redactText(input);
    // Generous: quadratic behaviour on 2 MB would take minutes.
    expect(Date.now() - start).toBeLessThan(5000);
  });
});
