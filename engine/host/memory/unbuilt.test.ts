/**
 * better-sqlite3 installed but its addon never built (npm 11 skipped its build step), or
 * built for another Node: the JavaScript loads, the addon fails at the first open, and the
 * store says how to fix it. Each case loads the room afresh (sqlite.ts keeps what it loaded).
 */
import type * as IndexModule from './memory-index';
import type * as SqliteModule from './sqlite';
import type * as JournalModule from './journal';
import { journalRecord, tempStore } from './test-support';

// Whether the addon is where better-sqlite3 builds it (build/Release), for the case at hand.
let mockAddonBuilt = true;
jest.mock('fs', () => {
  const actual = jest.requireActual<typeof import('fs')>('fs');
  return { ...actual, existsSync: (p: import('fs').PathLike) => (mockAddonBuilt || !String(p).endsWith('better_sqlite3.node')) && actual.existsSync(p) };
});
// The package as sqlite.ts loads it when it finds no built addon (then `bindings` searches).
jest.mock('better-sqlite3', () => class {
  constructor() {
    throw new Error('Could not locate the bindings file. Tried:\n → /p/node_modules/better-sqlite3/build/better_sqlite3.node');
  }
});
// The Database class alone, as sqlite.ts loads it when it gives the addon it found.
jest.mock('better-sqlite3/lib/database', () => class {
  constructor() {
    throw new Error("The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using NODE_MODULE_VERSION 127.");
  }
});

interface Room { openMemoryIndex: typeof IndexModule.openMemoryIndex; MemoryUnavailableError: typeof SqliteModule.MemoryUnavailableError; appendToJournal: typeof JournalModule.appendToJournal }

function freshRoom(): Room {
  let room: Room | undefined;
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    room = {
      openMemoryIndex: (require('./memory-index') as typeof IndexModule).openMemoryIndex,
      MemoryUnavailableError: (require('./sqlite') as typeof SqliteModule).MemoryUnavailableError,
      appendToJournal: (require('./journal') as typeof JournalModule).appendToJournal,
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  return room as Room;
}

describe('an unbuilt better-sqlite3', () => {
  let store: ReturnType<typeof tempStore>;
  beforeEach(() => {
    store = tempStore();
  });
  afterEach(() => {
    mockAddonBuilt = true;
    store.remove();
  });

  it('is memory-unavailable, at the first open and after it; recording goes on', () => {
    mockAddonBuilt = false;
    const room = freshRoom();
    room.appendToJournal(store.dir, store.projectRoot, [journalRecord()]);
    const open = () => room.openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 100, now: Date.now });
    expect(open).toThrow(room.MemoryUnavailableError);
    expect(open).toThrow(/not installed or not built \(Could not locate the bindings file\. Tried:\)/);
    room.appendToJournal(store.dir, store.projectRoot, [journalRecord()]);
  });

  it('built for another Node, is memory-unavailable too, with what loading the addon said', () => {
    const room = freshRoom();
    const open = () => room.openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 100, now: Date.now });
    expect(open).toThrow(room.MemoryUnavailableError);
    expect(open).toThrow(/not installed or not built \(The module '.*better_sqlite3\.node'\)/);
  });
});
