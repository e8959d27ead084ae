import { REDACT_WATCHDOG_MS } from '../evaluate/regex';
import { REDACTED, redactPatterns, redactRecord, redactText } from './redact';

// Fake secrets are assembled at run time so that no scanner mistakes this file for a leak.
const rep = (c: string, n: number) => c.repeat(n);
const AWS = `AKIA${rep('Q', 16)}`;
const GHP = `ghp_${rep('a1B2', 9)}`;
const GHO = `gho_${rep('Z9', 20)}`;
const GH_PAT = `github_pat_${rep('x_Y', 10)}`;
const SLACK = `xoxb-${'1234567890'}-${rep('ab', 8)}`;
const OPENAI = `sk-${rep('A7b', 8)}`;
const ANTHROPIC = `sk-ant-api03-${rep('Qx_', 10)}`;
const STRIPE = `sk_live_${rep('9k', 12)}`;
const JWT = `eyJ${rep('hbGciOi', 2)}.eyJ${rep('zdWIiOi', 3)}.${rep('SflKxw', 4)}`;
const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEow' + rep('IBAAKC', 8), rep('q', 40), '-----END RSA PRIVATE KEY-----'].join('\n');
const R = REDACTED;

describe('redactText: key formats keep their public prefix', () => {
  it.each<[string, string, string]>([
    ['AWS access key id', `aws s3 ls --key ${AWS}`, `aws s3 ls --key AKIA${R}`],
    ['GitHub token (ghp_)', `git clone https://${GHP}@github.com/o/r`, `git clone https://ghp_${R}@github.com/o/r`],
    ['GitHub token (gho_)', `gh auth login ${GHO}`, `gh auth login gho_${R}`],
    ['GitHub fine-grained PAT', `echo ${GH_PAT}`, `echo github_pat_${R}`],
    ['Slack token', `curl -d t=${SLACK}`, `curl -d t=xoxb-${R}`],
    ['sk- API key', `run ${OPENAI} now`, `run sk-${R} now`],
    ['sk-ant- API key', `key ${ANTHROPIC}`, `key sk-${R}`],
    ['Stripe secret key', `pay ${STRIPE}`, `pay sk_live_${R}`],
    ['JWT', `cookie ${JWT} end`, `cookie eyJ${R} end`],
    ['bearer token', 'curl -H "Authorization: Bearer abcdef0123456789"', `curl -H "Authorization: Bearer ${R}"`],
    ['URL credentials', 'psql postgres://admin:hunter22@db:5432/x', `psql postgres://admin:${R}@db:5432/x`],
    ['PEM private key', `key:\n${PEM}\ndone`, `key:\n-----BEGIN RSA PRIVATE KEY-----${R}-----END RSA PRIVATE KEY-----\ndone`],
    ['PEM cut off before END', `${PEM.split('\n').slice(0, 2).join('\n')}`, `-----BEGIN RSA PRIVATE KEY-----${R}`],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText: assignments whose name looks secret lose their value', () => {
  it.each<[string, string]>([
    ['API_KEY=abc123 npm run deploy', `API_KEY=${R} npm run deploy`],
    ['export TOKEN=s3cr3t && make', `export TOKEN=${R} && make`],
    ['export AWS_SECRET_ACCESS_KEY="wJalr/K7MDENG" ; aws s3 ls', `export AWS_SECRET_ACCESS_KEY="${R}" ; aws s3 ls`],
    ["DB_PASSWORD='p@ss word' psql", `DB_PASSWORD='${R}' psql`],
    ['password: hunter2', `password: ${R}`],
    ['{"password": "hunter2", "user": "bob"}', `{"password": "${R}", "user": "bob"}`],
    ['mysql --password=hunter2 db', `mysql --password=${R} db`],
    ['deploy --token abc123 --env prod', `deploy --token ${R} --env prod`],
    ['note: GITHUB_TOKEN=abc is set', `note: GITHUB_TOKEN=${R} is set`],
    ['SESSION_COOKIE=xyz', `SESSION_COOKIE=${R}`],
    ['client_secret=foo&grant=x', `client_secret=${R}&grant=x`],
    // A generic word (key, pass, pwd, auth, session, cookie, pat) as the name's last part.
    ['DB_PASS=hunter2 psql', `DB_PASS=${R} psql`],
    ['MY_SESSION=abc123', `MY_SESSION=${R}`],
    ['session: abc', `session: ${R}`],
    ['GH_PAT=abc123 gh api', `GH_PAT=${R} gh api`],
    ['curl -H "x-auth: abc123"', `curl -H "x-auth: ${R}"`],
    ['DB_PASS_2=hunter2', `DB_PASS_2=${R}`],
    ['gpg --pass hunter2 -d f', `gpg --pass ${R} -d f`],
    [`API_KEY: ${OPENAI}`, `API_KEY: sk-${R}`],
  ])('%j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  // Measured with Claude Code: a rule's context `SESSION-CTX-MARKER: hello` was logged as
  // `SESSION-CTX-MARKER: [REDACTED]`. A generic word only counts as the name's last part.
  it.each([
    'SESSION-CTX-MARKER: hello',
    'AUTH-MODE: strict',
    'KEY_ID=k-17 rotate',
    'COOKIE-POLICY: same-site only',
    'PAT-NOTE: renew before June',
    'ssh --key-file ./deploy.pem host',
  ])('leaves %j alone: a generic word that is not the last part of the name', (input) => {
    expect(redactText(input)).toBe(input);
  });

  it('a context message naming a generic word first reaches the log unchanged', () => {
    const record = { outcome: 'allow', contexts: ['SESSION-CTX-MARKER: hello'] };
    expect(redactRecord(record)).toEqual(record);
  });

  it.each([
    'NODE_ENV=production npm test',
    'ATEAM_ENFORCEMENT=off',
    'BYPASS=off make',
    'rm -rf build: not allowed',
    'src/token.ts holds secrets.',
    '.env holds secrets.',
    'git push --force origin main',
    'the token value is missing',
    '/p/.claude/policies.yaml:4:5: error expression-error: rule "a": expression failed',
    '2026-06-01T10:00:00.000Z',
  ])('leaves %j alone', (input) => {
    expect(redactText(input)).toBe(input);
  });
});

describe('redactText: credentials in URLs, headers and command lines', () => {
  // Measured before this table: each of these reached the log as written.
  const V = `Zq8${rep('Xv2Lm9', 3)}`;
  it.each<[string, string, string]>([
    ['URL query access_token', `curl https://api.example.com/v1?access_token=${V}`, `curl https://api.example.com/v1?access_token=${R}`],
    ['URL query key', `curl "https://maps.example.com/api?key=${V}&q=1"`, `curl "https://maps.example.com/api?key=${R}&q=1"`],
    ['URL query apikey', `wget https://x.example/a?apikey=${V}`, `wget https://x.example/a?apikey=${R}`],
    ['URL query api_key', `open https://x.example/a?x=1&api_key=${V} now`, `open https://x.example/a?x=1&api_key=${R} now`],
    ['URL query sig (Azure SAS)', `az copy "https://a.blob.core.windows.net/c?sv=2020&sig=${V}"`, `az copy "https://a.blob.core.windows.net/c?sv=2020&sig=${R}"`],
    ['URL query signature', `curl https://x.example/a?signature=${V}`, `curl https://x.example/a?signature=${R}`],
    ['URL query X-Amz-Signature', `curl "https://b.s3.amazonaws.com/k?X-Amz-Expires=60&X-Amz-Signature=${V}"`, `curl "https://b.s3.amazonaws.com/k?X-Amz-Expires=60&X-Amz-Signature=${R}"`],
    ['URL query client_secret', `curl https://x.example/oauth?client_secret=${V}`, `curl https://x.example/oauth?client_secret=${R}`],
    ['URL query password', `curl https://x.example/login?user=bob&password=${V}`, `curl https://x.example/login?user=bob&password=${R}`],
    ['.npmrc _authToken', `echo "//registry.npmjs.org/:_authToken=${V}" > .npmrc`, `echo "//registry.npmjs.org/:_authToken=${R}" > .npmrc`],
    ['npm config set _authToken', `npm config set //registry.npmjs.org/:_authToken ${V}`, `npm config set //registry.npmjs.org/:_authToken ${R}`],
    ['.npmrc _auth and _password', `//r.example/:_auth=${V}\n`, `//r.example/:_auth=${R}\n`],
    ['Authorization without a scheme', `curl -H 'Authorization: ${V}' x`, `curl -H 'Authorization: ${R}' x`],
    ['Proxy-Authorization', `-H "Proxy-Authorization: Basic ${V}"`, `-H "Proxy-Authorization: Basic ${R}"`],
    ['Authorization: Digest', `Authorization: Digest ${V}`, `Authorization: Digest ${R}`],
    ['curl -u user:password', `curl -u bob:${V} https://x.example`, `curl -u bob:${R} https://x.example`],
    ['curl --user=user:password', `curl --user=bob:${V} https://x.example`, `curl --user=bob:${R} https://x.example`],
    ['mysql -pSECRET', `mysql -u root -p${V} shop`, `mysql -u root -p${R} shop`],
    ['mysqldump -p\'SECRET\'', `mysqldump -h db -p'${V}' shop`, `mysqldump -h db -p'${R}' shop`],
    ['sshpass -p', `sshpass -p ${V} ssh host`, `sshpass -p ${R} ssh host`],
    ['docker login -p', `docker login -u bob -p ${V} registry.example`, `docker login -u bob -p ${R} registry.example`],
    ['redis-cli -a', `redis-cli -h cache -a ${V} ping`, `redis-cli -h cache -a ${R} ping`],
    ['openssl -passin pass:', `openssl rsa -in k.pem -passin pass:${V}`, `openssl rsa -in k.pem -passin pass:${R}`],
    ['URL user:password@', `git clone https://bob:${V}@git.example/o/r`, `git clone https://bob:${R}@git.example/o/r`],
    ['JWT', `curl -b session=x eyJhbGciOiJI.eyJzdWIiOiIx.${V}`, `curl -b session=${R} eyJ${R}`],
    ['PEM (OpenSSH)', `-----BEGIN OPENSSH PRIVATE KEY-----\n${V}\n-----END OPENSSH PRIVATE KEY-----`, `-----BEGIN OPENSSH PRIVATE KEY-----${R}-----END OPENSSH PRIVATE KEY-----`],
    ['PEM in a JSON string', `"private_key": "-----BEGIN PRIVATE KEY-----\\n${V}\\n-----END PRIVATE KEY-----\\n"`, `"private_key": "-----BEGIN PRIVATE KEY-----${R}-----END PRIVATE KEY-----\\n"`],
    ['GitLab token', `glpat-${V}`, `glpat-${R}`],
    ['npm token', `npm_${rep('aB3', 12)}`, `npm_${R}`],
    ['Hugging Face token', `hf_${rep('aB3', 11)}`, `hf_${R}`],
    ['Slack app token', `xapp-1-${V}`, `xapp-${R}`],
    ['Slack webhook URL', `curl https://hooks.slack.com/services/T0/B0/${V}`, `curl https://hooks.slack.com/services/${R}`],
    ['SendGrid key', `SG.${V}.${V}`, `SG.${R}`],
    ['Azure connection string', `AccountName=a;AccountKey=${V}==;EndpointSuffix=core`, `AccountName=a;AccountKey=${R};EndpointSuffix=core`],
    ['template cmd={{command}}', `cmd=DB_PASSWORD=${V} npm test`, `cmd=DB_PASSWORD=${R} npm test`],
    ['template with a colon', `command:API_TOKEN=${V} make`, `command:API_TOKEN=${R} make`],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
    expect(redactText(expected)).toBe(expected);
  });

  it.each([
    'curl -u bob https://x.example',
    'mkdir -p src/lib && cp -p a b',
    'docker run -p 8080:80 img',
    'mysql -P 3306 -h db -p shop',
    'git push -u origin main',
    'curl "https://x.example/list?page=2&sort=asc&q=keys"',
    'AUTHORIZATION-MODE: strict',
    'signature: approved by the reviewer',
    'npm_config_cache=/tmp/npm npm ci',
    'grep -r authorization src/',
    'cmd=npm test',
    'x=a=b=c',
  ])('leaves %j alone', (input) => {
    expect(redactText(input)).toBe(input);
  });
});

describe('redactText: .env content', () => {
  it('redacts every value of a dotenv-style block, names kept', () => {
    const content = 'NODE_ENV=production\nDATABASE_URL=postgres://u:p@h/db\nSTRIPE=abc\n\n# comment\nEMPTY=';
    expect(redactText(content)).toBe(`NODE_ENV=${R}\nDATABASE_URL=${R}\nSTRIPE=${R}\n\n# comment\nEMPTY=`);
  });

  it('finds the block after text that quotes it', () => {
    expect(redactText('Writing .env: HOST=db.internal\nPORT=5432')).toBe(`Writing .env: HOST=${R}\nPORT=${R}`);
  });

  it('a single non-secret assignment is not a .env block', () => {
    expect(redactText('PORT=3000')).toBe('PORT=3000');
  });
});

describe('redactText: extra patterns (settings.log.redact)', () => {
  it('replaces each whole match', () => {
    expect(redactText('ticket TCK-12345 and TCK-9', ['TCK-\\d{3,}'])).toBe(`ticket ${R} and TCK-9`);
  });

  it('replaces only the first capture group when there is one', () => {
    expect(redactText('customer=4711 ok', ['customer=(\\d+)'])).toBe(`customer=${R} ok`);
  });

  it('skips a pattern that does not compile, and one that matches the empty string', () => {
    expect(redactText('abc', ['(unclosed', 'x*'])).toBe('abc');
  });
});

describe('redactRecord', () => {
  it('returns a record with no hint of a secret in any string as it is, without scrubbing each string', () => {
    const record = { time: '2026-06-01T10:00:00.000Z', session_id: 's-1', outcome: 'deny', rules: ['no-rm-root'], reason: 'Refusing `rm -rf /`', paths: [] };
    expect(redactRecord(record)).toBe(record);
    // One secret anywhere, however deep, and the record is scrubbed.
    const deep = { ...record, errors: [{ detail: [`token ${GHP}`] }] };
    expect(redactRecord(deep)).not.toBe(deep);
    expect(JSON.stringify(redactRecord(deep))).not.toContain(GHP.slice(4));
  });

  it('scrubs every string of a record, nested ones too, and returns a copy', () => {
    const record = {
      time: '2026-06-01T10:00:00.000Z',
      session_id: 's-1',
      outcome: 'deny',
      rules: ['no-secrets'],
      reason: `Do not echo ${AWS}`,
      paths: ['.env'],
      warnings: [`API_KEY=abc seen`],
      bypass: { env: 'X', value: 'off' },
      errors: [`token ${GHP}`],
      count: 3,
      flag: null,
    };
    const copy = redactRecord(record, ['no-(secrets)']);
    expect(copy).toEqual({
      ...record,
      reason: `Do not echo AKIA${R}`,
      rules: [`no-${R}`],
      warnings: [`API_KEY=${R} seen`],
      errors: [`token ghp_${R}`],
    });
    expect(record.reason).toContain(AWS);
  });
});

describe('redactPatterns', () => {
  it.each<[unknown, string[]]>([
    [{ redact: ['a+', 'b'] }, ['a+', 'b']],
    [{ redact: ['a', 3, null] }, ['a']],
    [{}, []],
    [null, []],
    [{ redact: 'a' }, []],
  ])('%j', (log, expected) => {
    expect(redactPatterns(log as object | null)).toEqual(expected);
  });
});

describe('the policy\'s own patterns under a watchdog', () => {
  // A pattern that backtracks for hours on a crafted command: stopped, the text it was given goes whole.
  const SLOW = '(a|a)*$';
  const crafted = `${'a'.repeat(40)}!`;

  test('redactText redacts the whole text', () => {
    const started = Date.now();
    expect(redactText(crafted, [SLOW])).toBe(REDACTED);
    expect(Date.now() - started).toBeLessThan(REDACT_WATCHDOG_MS + 1000);
  });

  test('redactRecord redacts only the string that trips it', () => {
    const started = Date.now();
    expect(redactRecord({ outcome: 'deny', command: crafted, tool: 'Bash' }, [SLOW])).toEqual({ outcome: 'deny', command: REDACTED, tool: 'Bash' });
    expect(Date.now() - started).toBeLessThan(2 * REDACT_WATCHDOG_MS + 1000);
  });

  test('a pattern that finishes redacts as before', () => {
    expect(redactRecord({ command: 'ticket-123 done' }, ['ticket-\\d+'])).toEqual({ command: `${REDACTED} done` });
  });
});
