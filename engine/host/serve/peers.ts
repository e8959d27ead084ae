/**
 * Who is at the other end of a connection to the policy server. On Linux the server tells
 * not only the user that owns the client's socket (/proc/net/tcp) but the process that
 * holds it (/proc/<pid>/fd): an event is taken only from the Claude Code process of the
 * session it names, so a `curl` by the confined agent (a process of the same user, which
 * may know every file of the user) is refused, and nothing it sends reaches a decision
 * log or a memory store. Elsewhere nothing can be told (`identify` gives null).
 *
 * Both readings are remembered briefly: a burst of connections reads /proc/net/tcp a few
 * times, not once each, and a process's sockets are read again only when a socket is not
 * among those last seen, at most every `refreshMs`.
 */
import type { Socket } from 'net';
import { procAddress, readTcpTable, socketInodes, type TcpSocket } from './processes';

export interface PeerCheck {
  /** The client socket of a connection (its owner and inode), or null where /proc cannot tell. */
  identify(socket: Socket): TcpSocket | null;
  /**
   * Which of `pids` holds the socket `inode`, or null. A process's sockets are read again
   * when the inode is not among those last seen and that reading is older than
   * `refreshMs`, or at once with `fresh` (an event must not be refused for a stale reading).
   */
  holder(inode: string, pids: Iterable<number>, fresh?: boolean): number | null;
}

export interface PeerCheckOptions {
  /** /proc/net/tcp as text (default: read it); null where there is none. */
  readTable?: () => string | null;
  /** A process's socket inodes (default: /proc/<pid>/fd). */
  inodesOf?: (pid: number) => Set<string> | null;
  now?: () => number;
  /** How long a reading is trusted before a miss reads again (default 10 ms). */
  refreshMs?: number;
}

/**
 * @example const peers = createPeerCheck(); const s = peers.identify(socket); s && peers.holder(s.inode, [claudePid]) // claudePid
 */
export function createPeerCheck(options: PeerCheckOptions = {}): PeerCheck {
  const readTable = options.readTable ?? readTcpTable;
  const inodesOf = options.inodesOf ?? socketInodes;
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 10;
  let table: { at: number; sockets: Map<string, TcpSocket> | null } | null = null;
  const held = new Map<number, { at: number; inodes: Set<string> }>();

  const readSockets = (): Map<string, TcpSocket> | null => {
    table = { at: now(), sockets: parseTable(readTable()) };
    return table.sockets;
  };

  return {
    identify(socket) {
      // The client's socket: its local address is the connection's remote one.
      const local = procAddress(socket.remoteAddress ?? '', socket.remotePort ?? -1);
      const remote = procAddress(socket.localAddress ?? '', socket.localPort ?? -1);
      if (local === null || remote === null) return null;
      const key = `${local} ${remote}`;
      const hit = table !== null && now() - table.at < refreshMs ? table.sockets?.get(key) : undefined;
      return hit ?? readSockets()?.get(key) ?? null;
    },
    holder(inode, pids, fresh = false) {
      const stale: number[] = [];
      for (const pid of new Set(pids)) {
        const seen = held.get(pid);
        if (seen?.inodes.has(inode)) return pid;
        if (fresh || !seen || now() - seen.at >= refreshMs) stale.push(pid);
      }
      for (const pid of stale) {
        const inodes = inodesOf(pid);
        if (inodes === null) {
          held.delete(pid);
          continue;
        }
        held.set(pid, { at: now(), inodes });
        if (inodes.has(inode)) return pid;
      }
      return null;
    },
  };
}

/** /proc/net/tcp's lines by "local remote" (its own hex spelling), or null without the table. */
function parseTable(text: string | null): Map<string, TcpSocket> | null {
  if (text === null) return null;
  const sockets = new Map<string, TcpSocket>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    const uid = Number(f[7]);
    if (f.length > 9 && Number.isInteger(uid) && /^\d+$/.test(f[9])) sockets.set(`${f[1]} ${f[2]}`, { uid, inode: f[9] });
  }
  return sockets;
}
