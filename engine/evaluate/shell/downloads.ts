/**
 * Commands that write files named by options: downloaders (curl, wget) and tar. A file
 * named after something only known at run time (`curl -O URL`) makes the command unsure.
 */
import { writesOperands, type CommandSpec } from './effects';
import { optionValues, parseOptions } from './options';
import type { Arg } from './words';

/** curl's short options that take a value; only o, D and c name files curl writes. */
const CURL_VALUED = 'oDcHdXuAeFTxbmwrECKQYyzt';
const CURL_LONG_WRITES = ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc'];

function curlWrites(args: readonly Arg[]): { writes: Arg[]; unsure?: string } {
  const writes: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || !arg.startsWith('-') || arg === '-') continue;
    const next = (): Arg => (i + 1 < args.length ? args[++i] : null);
    if (arg.startsWith('--')) {
      const [name, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      if (name === '--remote-name' || name === '--remote-name-all' || name === '--output-dir') return { writes, unsure: `curl ${name} writes under a name known only at run time` };
      if (name === '--config') return { writes, unsure: 'curl --config reads options (output files among them) from a file' };
      if (CURL_LONG_WRITES.includes(name)) writes.push(value ?? next());
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      if (arg[j] === 'O') return { writes, unsure: 'curl -O writes under a name taken from the URL' };
      if (arg[j] === 'K') return { writes, unsure: 'curl -K reads options (output files among them) from a file' };
      if (!CURL_VALUED.includes(arg[j])) continue;
      const value = j + 1 < arg.length ? arg.slice(j + 1) : next();
      if ('oDc'.includes(arg[j])) writes.push(value);
      break;
    }
  }
  return { writes: writes.filter((w) => w !== '-') };
}

export const DOWNLOADS: CommandSpec[] = [
  {
    names: ['curl'],
    effect: (args) => {
      const found = curlWrites(args);
      return { ...writesOperands(found.writes), ...(found.unsure ? { unsure: found.unsure } : {}) };
    },
  },
  {
    names: ['wget'],
    effect: (args) => {
      const parsed = parseOptions(args, {
        valued: 'OoaPtTUeiwQlABDIXR',
        long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'user-agent', 'header', 'tries', 'timeout', 'wait', 'user', 'password', 'referer', 'input-file', 'execute', 'config', 'save-cookies', 'warc-file'],
      });
      if (optionValues(parsed, '-e', '--execute', '--config', '--warc-file')) return { unsure: 'wget runs configuration commands or writes files named at run time' };
      if (parsed.options.has('-b') || parsed.options.has('--background')) return { unsure: 'wget -b writes a log file of its own' };
      const logs = [...(optionValues(parsed, '-o', '--output-file') ?? []), ...(optionValues(parsed, '-a', '--append-output') ?? [])];
      const document = optionValues(parsed, '-O', '--output-document');
      if (!document && !parsed.options.has('--spider') && parsed.operands.length > 0) {
        return { ...writesOperands(logs), unsure: 'wget saves under a name taken from the URL' };
      }
      return writesOperands([...logs, ...(optionValues(parsed, '--save-cookies') ?? []), ...(document ?? []).filter((d) => d !== '-')]);
    },
  },
  {
    names: ['tar', 'bsdtar', 'gtar'],
    effect: (args) => {
      // Old style `tar czf out.tgz dir`: the first argument is a bundle of letters without a dash.
      const first = args[0];
      const oldStyle = typeof first === 'string' && /^[A-Za-z]+$/.test(first) ? first : '';
      const rest = oldStyle ? [...(oldStyle.includes('f') ? ['-f', args[1]] : []), ...args.slice(oldStyle.includes('f') ? 2 : 1)] : args;
      const parsed = parseOptions(rest, { valued: 'fCTXbgKLNVIF', long: ['file', 'directory', 'files-from', 'exclude-from', 'use-compress-program', 'checkpoint-action', 'info-script', 'new-volume-script', 'to-command', 'listed-incremental', 'index-file'] });
      if (optionValues(parsed, '-I', '--use-compress-program', '--checkpoint-action', '-F', '--info-script', '--new-volume-script', '--to-command')) {
        return { unsure: 'tar runs a program named in its options' };
      }
      const extracts = oldStyle.includes('x') || parsed.options.has('-x') || parsed.options.has('--extract') || parsed.options.has('--get');
      if (extracts) return { unsure: 'tar extracts files named inside the archive' };
      const modes = ['-c', '-r', '-u', '-A', '--create', '--append', '--update', '--concatenate', '--catenate', '--delete'];
      const writesArchive = /[cruA]/.test(oldStyle) || modes.some((m) => parsed.options.has(m));
      const snapshots = [...(optionValues(parsed, '-g', '--listed-incremental') ?? []), ...(optionValues(parsed, '--index-file') ?? [])];
      return writesOperands([...(writesArchive ? (optionValues(parsed, '-f', '--file') ?? []).filter((f) => f !== '-') : []), ...snapshots]);
    },
  },
];
