/**
 * The secret formats the decision log scrubs whatever surrounds them: key formats with a
 * public prefix, credentials in URLs and headers, and the password flags of commands that
 * take one. Each pattern is linear: bounded quantifiers, or a literal start and a class
 * that cannot overlap what follows.
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

export interface Scrubber {
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
  /** Texts that hold none of these (lower-cased when `caseless`) cannot match: the pattern is not even run. */
  hints: readonly string[];
  caseless?: boolean;
}

const keep = (prefix: string) => `${prefix}${REDACTED}`;
const keepFirst = (_m: string, prefix: string) => keep(prefix);

/**
 * Tokens known by their prefix: [prefix (kept), what follows]. The prefix is public (it
 * says which service the token is for); what follows is the secret.
 */
const PREFIXED: ReadonlyArray<[string, string]> = [
  ['(?:AKIA|ASIA|AGPA|AIDA|AROA)', '[0-9A-Z]{16}\\b'],
  ['gh[pousr]_', '[A-Za-z0-9]{36,}\\b'],
  ['github_pat_', '[A-Za-z0-9_]{22,}'],
  ['xox[baprse]-', '[A-Za-z0-9-]{10,}'],
  ['xapp-', '[A-Za-z0-9-]{10,}'],
  ['sk-', '[A-Za-z0-9_-]{16,}'],
  ['[sr]k_(?:live|test)_', '[A-Za-z0-9]{16,}'],
  ['whsec_', '[A-Za-z0-9+/=]{16,}'],
  ['AIza', '[0-9A-Za-z_-]{35}\\b'],
  ['ya29\\.', '[A-Za-z0-9_-]{20,}'],
  ['gl(?:pat|ptt|dt|rt|soat|cbt|imt|agent|oas|ffct)-', '[A-Za-z0-9_-]{20,}'],
  ['npm_', '[A-Za-z0-9]{36}\\b'],
  ['hf_', '[A-Za-z0-9]{30,}\\b'],
  ['shp(?:at|ca|pa|ss)_', '[a-fA-F0-9]{32}\\b'],
  ['do[opr]_v1_', '[a-f0-9]{64}\\b'],
  ['hv[sb]\\.', '[A-Za-z0-9_-]{24,}'],
  ['pypi-', 'AgE[A-Za-z0-9_-]{50,}'],
  ['SG\\.', '[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}'],
  ['AGE-SECRET-KEY-1', '[0-9A-Z]{50,}'],
];

/** The literal text every PREFIXED prefix starts with (some cased, so hints are matched as written). */
const PREFIX_HINTS = ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'p_', 'o_', 'u_', 's_', 'r_', 'github_pat_', 'xox', 'xapp-', 'sk-', 'k_live_', 'k_test_',
  'whsec_', 'AIza', 'ya29.', 'gl', 'npm_', 'hf_', 'shp', '_v1_', 'hvs.', 'hvb.', 'pypi-', 'SG.', 'AGE-SECRET-KEY-1'];

/** Authentication schemes whose credential follows them in an Authorization header. */
const SCHEMES = 'bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256';

/**
 * Names of URL query parameters that carry a credential besides those SECRET_NAME knows:
 * signatures of pre-signed URLs (Azure SAS `sig`, S3 and GCS signatures).
 */
const QUERY_SIGNATURE = /^(?:sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential)$/i;

/** Commands whose short flag carries a password: the part kept ends just before it. Bounded, so each start costs at most 200 steps. */
const COMMAND_FLAGS: readonly Scrubber[] = [
  // mysql -pSECRET (attached; `-p` alone prompts).
  {
    pattern: /(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb(?:-dump|-admin)?)\b[^;&|\n]{0,200}?[ \t]-p)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`]+)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: ['mysql', 'mariadb'],
  },
  {
    pattern: /(\bsshpass\b[^;&|\n]{0,200}?[ \t]-p[ \t]*)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`]+)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: ['sshpass'],
  },
  {
    pattern: /(\b(?:docker|podman|buildah|skopeo|nerdctl|helm[ \t]+registry)[ \t]+login\b[^;&|\n]{0,200}?[ \t]-p[ \t]*)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`-][^\s;&|'"`]*)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: ['login'],
  },
  {
    pattern: /(\bredis-cli\b[^;&|\n]{0,200}?[ \t](?:-a|--pass)[ \t]+)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`]+)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: ['redis-cli'],
  },
  // curl -u user:password (and --user, --proxy-user, -U): the user is kept.
  {
    pattern: /(\b(?:curl|wget)\b[^;&|\n]{0,200}?[ \t](?:-u|-U|--user|--proxy-user)(?:[ \t]+|=)?["']?[^\s:"'`;&|]{0,200}:)([^\s"'`;&|]+)/g,
    replace: (_m, head: string) => keep(head),
    hints: ['curl', 'wget'],
  },
  // httpie and xh: -a user:password, --auth user:password.
  {
    pattern: /(\b(?:https?|xh|xhs)\b[^;&|\n]{0,200}?[ \t](?:-a|--auth)(?:[ \t]+|=)["']?[^\s:"'`;&|]{0,200}:)([^\s"'`;&|]+)/g,
    replace: (_m, head: string) => keep(head),
    hints: ['xh', 'http'],
  },
  // az login -p SECRET / --password SECRET (a service principal's secret).
  {
    pattern: /(\baz[ \t]+login\b[^;&|\n]{0,200}?[ \t](?:-p|--password)(?:[ \t]+|=))("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`]+)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: ['az'],
  },
    // openssl -passin pass:SECRET, -passout, -pass
  {
    pattern: /([ \t]-pass(?:in|out)?[ \t]+pass:)([^\s;&|'"`]+)/g,
    replace: (_m, head: string) => keep(head),
    hints: ['-pass'],
  },
];

/** PEM private keys, also a block cut off before its END line; applied before everything else (its body may hold anything). */
export const PEM_BLOCK: Scrubber = {
  pattern: /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
  replace: (_m, begin: string, _b: string, end: string) => `${begin}${REDACTED}${end}`,
  hints: ['PRIVATE KEY'],
};

/** Every other format, in the order applied. */
export const TOKEN_SCRUBBERS: readonly Scrubber[] = [
  {
    // One pass for every prefix: \b(?:(P1)B1|(P2)B2|...); the group that took part is the prefix kept.
    pattern: new RegExp(`\\b(?:${PREFIXED.map(([p, body]) => `(${p})${body}`).join('|')})`, 'g'),
    replace: (_m, ...groups: string[]) => keep(groups.slice(0, PREFIXED.length).find((g) => typeof g === 'string') ?? ''),
    hints: PREFIX_HINTS,
  },
  { pattern: /\b(eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: keepFirst, hints: ['eyJ'] },
  { pattern: new RegExp(`\\b(${SCHEMES})(\\s+)[A-Za-z0-9._~+/=-]{8,}`, 'gi'), replace: (_m, p: string, s: string) => `${p}${s}${REDACTED}`, hints: ['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm', 'aws4'], caseless: true },
  // An Authorization header whose value has no scheme word: the whole value is the credential.
  {
    pattern: new RegExp(`(\\b(?:proxy-)?authorization["']?[ \\t]*[:=][ \\t]*["']?)(?!(?:${SCHEMES})\\b|\\[REDACTED)([^\\s"'\`;&|,]+)`, 'gi'),
    replace: (_m, head: string) => keep(head),
    hints: ['authorization'],
    caseless: true,
  },
  // Credentials in a URL: scheme://user:password@host.
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s/@]+@/gi, replace: (_m, p: string) => `${p}${REDACTED}@`, hints: ['://'] },
  // Webhook URLs whose path is the secret.
  { pattern: /(\bhooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]+/g, replace: keepFirst, hints: ['hooks.slack.com'] },
  { pattern: /(\bdiscord(?:app)?\.com\/api\/webhooks\/\d+\/)[A-Za-z0-9_-]+/g, replace: keepFirst, hints: ['/api/webhooks/'] },
  // A Telegram bot's token in its API URL: api.telegram.org/bot<id>:<secret>/method.
  { pattern: /(\bapi\.telegram\.org\/(?:file\/)?bot\d{5,16}:)[A-Za-z0-9_-]{20,}/g, replace: keepFirst, hints: ['api.telegram.org'] },
  // .npmrc: //registry/:_authToken=SECRET, also `npm config set //registry/:_authToken SECRET`.
  {
    pattern: /(:_(?:authToken|auth|password)(?:[ \t]*=[ \t]*|[ \t]+))("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`]+)/g,
    replace: (_m, head: string, value: string) => `${head}${quotedRedacted(value)}`,
    hints: [':_auth', ':_password'],
  },
  ...COMMAND_FLAGS,
];

/**
 * A URL query parameter that is a signature of a pre-signed URL; the other secret names
 * are found by the assignment scrubber (its lead includes `?` and `&`).
 */
export const QUERY_PARAMETER: Scrubber = {
  pattern: /([?&;])([A-Za-z0-9_.-]{1,40})=([^&#\s"'`<>]+)/g,
  replace: (whole: string, lead: string, name: string, value: string) => (QUERY_SIGNATURE.test(name) && value !== REDACTED ? `${lead}${name}=${REDACTED}` : whole),
  hints: ['sig', 'x-amz-', 'x-goog-'],
  caseless: true,
};

/** `[REDACTED]`, inside the value's quotes when it was quoted. */
export function quotedRedacted(value: string): string {
  const q = value[0];
  return q === '"' || q === "'" ? `${q}${REDACTED}${value.endsWith(q) && value.length > 1 ? q : ''}` : REDACTED;
}
