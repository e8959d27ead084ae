/**
 * What the policy server asks of other processes: is a session's Claude Code still running
 * (a pid, checked with its start time on Linux so that a reused pid is not taken for it),
 * which user owns the other end of a loopback connection (Linux: /proc/net/tcp), and which
 * process holds it (/proc/<pid>/fd).
 */
import * as fs from 'fs';

/**
 * The start time of a process (field 22 of /proc/<pid>/stat, in clock ticks since boot),
 * or null where there is no /proc or no such process.
 * @example processStart(process.pid) // '123456'
 */
export function processStart(pid: number): string | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

/**
 * The parent of a process (Linux: /proc/<pid>/stat field 4), or null.
 * @example parentOf(process.pid) === process.ppid // true
 */
export function parentOf(pid: number): number | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/**
 * True while the process runs and, when its start time was known, is the same process.
 * @example isAlive(pid, processStart(pid)) // true
 */
export function isAlive(pid: number, start: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (start === null) return true;
  const now = processStart(pid);
  return now === null || now === start;
}

/**
 * True when `pid` is this process's parent or an ancestor up to `depth` levels (Linux),
 * or its parent elsewhere.
 * @example isAncestor(process.ppid) // true
 */
export function isAncestor(pid: number, depth = 4): boolean {
  if (pid === process.ppid) return true;
  let current: number | null = process.ppid;
  for (let i = 1; i < depth && current !== null; i++) {
    current = parentOf(current);
    if (current === pid) return true;
  }
  return false;
}

/**
 * An IPv4 address and port as /proc/net/tcp writes them, or null for anything else (IPv6).
 * @example procAddress('127.0.0.1', 8707) // '0100007F:21FB'
 */
export function procAddress(address: string, port: number): string | null {
  const parts = address.replace(/^::ffff:/, '').split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255) || !Number.isInteger(port) || port < 0) return null;
  const hex = parts.reverse().map((p) => p.toString(16).padStart(2, '0')).join('').toUpperCase();
  return `${hex}:${port.toString(16).padStart(4, '0').toUpperCase()}`;
}

/** One socket of /proc/net/tcp: the user that owns it and its inode. */
export interface TcpSocket {
  uid: number;
  inode: string;
}

/**
 * The socket at `local` connected to `remote`, both IPv4 loopback addresses, from
 * /proc/net/tcp; null where that cannot be known (no /proc, IPv6, gone). The server asks it
 * of the client's end of each connection: the client's address is that socket's local address.
 * @example tcpSocket({ address: '127.0.0.1', port: 51234 }, { address: '127.0.0.1', port: 8707 }) // { uid: 1000, inode: '1002' }
 */
export function tcpSocket(local: { address: string; port: number }, remote: { address: string; port: number }, table = readTcpTable()): TcpSocket | null {
  if (table === null) return null;
  const l = procAddress(local.address, local.port);
  const r = procAddress(remote.address, remote.port);
  if (l === null || r === null) return null;
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[1] === l && f[2] === r) {
      const uid = Number(f[7]);
      return Number.isInteger(uid) && /^\d+$/.test(f[9] ?? '') ? { uid, inode: f[9] } : null;
    }
  }
  return null;
}

/**
 * The user owning the client socket of a loopback connection (see tcpSocket), or null.
 * @example socketOwner({ address: '127.0.0.1', port: 51234 }, { address: '127.0.0.1', port: 8707 }) // 1000
 */
export function socketOwner(local: { address: string; port: number }, remote: { address: string; port: number }, table = readTcpTable()): number | null {
  return tcpSocket(local, remote, table)?.uid ?? null;
}

/**
 * The inodes of the sockets a process holds open (Linux: /proc/<pid>/fd), or null when
 * they cannot be read (no such process, another user's, no /proc).
 * @example socketInodes(process.pid) // Set { '48211', '48213' }
 */
export function socketInodes(pid: number): Set<string> | null {
  const dir = `/proc/${pid}/fd`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const inodes = new Set<string>();
  for (const name of names) {
    let target: string;
    try {
      target = fs.readlinkSync(`${dir}/${name}`);
    } catch {
      continue;
    }
    if (target.startsWith('socket:[')) inodes.add(target.slice(8, -1));
  }
  return inodes;
}

/**
 * The socket listening on 127.0.0.1:`port` (state 0A): its owner and inode, or null.
 * @example listenerSocket(8707) // { uid: 1000, inode: '1001' }
 */
export function listenerSocket(port: number, table = readTcpTable()): TcpSocket | null {
  if (table === null) return null;
  const wanted = [procAddress('127.0.0.1', port), procAddress('0.0.0.0', port)];
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[3] === '0A' && wanted.includes(f[1])) {
      const uid = Number(f[7]);
      return Number.isInteger(uid) && /^\d+$/.test(f[9] ?? '') ? { uid, inode: f[9] } : null;
    }
  }
  return null;
}

/**
 * The user owning the socket listening on 127.0.0.1:`port`, or null.
 * @example listenerOwner(8707) // 1000
 */
export function listenerOwner(port: number, table = readTcpTable()): number | null {
  return listenerSocket(port, table)?.uid ?? null;
}

/** /proc/net/tcp as text, or null where there is none. */
export function readTcpTable(): string | null {
  try {
    return fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return null;
  }
}
