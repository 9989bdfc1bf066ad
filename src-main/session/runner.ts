// Runs a host or a joining peer over a real UDP socket: binds, drives the session's timers, autosaves the host's
// board. The only session file that touches time and sockets (through net/transport). Knows nothing of the UI.
import type { PeerAddress } from '../net/address';
import type { Endpoint } from '../net/endpoint';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { PacketRecord } from '../net/stream/scheduler';
import type { Board } from './board';
import type { BoardFileNotice } from './board-file';
import { loadBoardFile, saveBoardFile } from './board-file';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import { HostSession } from './host';
import { PeerSession } from './peer';
import type { SessionRate } from './link';
import type { Role } from './protocol';

const TICK_MS = 50;
const AUTOSAVE_MS = 5000;
/** A save copies the file it replaces to FILE.1 at a session's first save and then at most this often. */
const BACKUP_EVERY_MS = 10 * 60_000;

export interface HostRun {
  readonly name: string;
  readonly code: string;
  readonly port: number;
  readonly bind: string;
  readonly boardFile?: string;
  readonly rate?: SessionRate;
  /** Upstream cap, bytes/s. */
  readonly uplinkBytesPerSecond?: number;
  /** The role joiners get (default editor). */
  readonly joinRole?: Role;
  /** Participants besides the host (default 256). */
  readonly maxPeers?: number;
  /** Connections from one source IP (default: a quarter of maxPeers, at most 32). */
  readonly maxConnectionsPerAddress?: number;
}

export interface JoinRun {
  readonly name: string;
  readonly code: string;
  readonly host: PeerAddress;
  readonly viewer?: boolean;
  readonly rate?: SessionRate;
  readonly uplinkBytesPerSecond?: number;
}

export class SessionRunner {
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private lastSavedHash = '';
  private lastSaveAt = 0;
  private lastBackupAt = -Infinity;
  /** Set when the board file could not be loaded and was moved aside (the host goes on; say so). */
  boardNotice: BoardFileNotice | undefined;
  /** Autosave failures, counted (the session goes on). */
  saveErrors = 0;
  private flushPending = false;
  private closed = false;

  private constructor(
    readonly controls: Controls,
    readonly transport: UdpTransport<Endpoint<PacketRecord>>,
    private readonly boardFile: string | undefined,
  ) {}

  static async host(o: HostRun): Promise<SessionRunner> {
    let board: Board | undefined;
    let notice: BoardFileNotice | undefined;
    if (o.boardFile !== undefined) ({ board, notice } = await loadBoardFile(o.boardFile));
    const session = new HostSession(
      {
        name: o.name,
        joinCode: o.code,
        ...(board ? { board } : {}),
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.uplinkBytesPerSecond === undefined
          ? {}
          : { uplinkBytesPerSecond: o.uplinkBytesPerSecond }),
        ...(o.joinRole === undefined ? {} : { joinRole: o.joinRole }),
        ...(o.maxPeers === undefined ? {} : { maxPeers: o.maxPeers }),
        ...(o.maxConnectionsPerAddress === undefined
          ? {}
          : { maxConnectionsPerAddress: o.maxConnectionsPerAddress }),
      },
      monotonicNow(),
    );
    const transport = await UdpTransport.open(session.endpoint, { port: o.port, bind: o.bind });
    const runner = new SessionRunner(hostControls(session), transport, o.boardFile);
    runner.boardNotice = notice;
    // A board restored from a backup is saved at once, so FILE is good again; one loaded as it is waits for a change.
    runner.lastSavedHash = notice === undefined ? session.board.hash() : '';
    runner.start();
    return runner;
  }

  static async join(o: JoinRun): Promise<SessionRunner> {
    const session = new PeerSession(
      {
        name: o.name,
        joinCode: o.code,
        viewer: o.viewer ?? false,
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.uplinkBytesPerSecond === undefined
          ? {}
          : { uplinkBytesPerSecond: o.uplinkBytesPerSecond }),
      },
      monotonicNow(),
    );
    const bind = o.host.address.includes(':') ? '::' : '0.0.0.0';
    const transport = await UdpTransport.open(session.endpoint, { port: 0, bind });
    const runner = new SessionRunner(peerControls(session), transport, undefined);
    session.connect(monotonicNow(), o.host);
    runner.start();
    return runner;
  }

  get address(): PeerAddress {
    return this.transport.address;
  }

  private start(): void {
    this.transport.onActivity = () => this.controls.afterIo(monotonicNow());
    this.timer = setInterval(() => {
      const now = monotonicNow();
      this.controls.tick(now);
      this.transport.pump();
      if (this.boardFile !== undefined && now - this.lastSaveAt >= AUTOSAVE_MS) {
        this.lastSaveAt = now;
        void this.autosave();
      }
    }, TICK_MS);
    this.transport.pump();
  }

  /**
   * Call after commands so what they queued leaves now (urgent data doesn't wait for the tick): right after
   * this turn of the event loop, so commands that arrive together (a pointer move and the drag step of the
   * same mouse event) share one packet instead of spending two.
   */
  flush(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    setImmediate(() => {
      this.flushPending = false;
      if (this.closed) return;
      this.controls.tick(monotonicNow());
      this.transport.pump();
    });
  }

  private async autosave(): Promise<void> {
    const file = this.boardFile;
    if (file === undefined) return;
    const hash = this.controls.board.hash();
    if (hash === this.lastSavedHash) return;
    this.lastSavedHash = hash;
    const text = this.controls.board.toFile();
    const now = monotonicNow();
    const backup = now - this.lastBackupAt >= BACKUP_EVERY_MS;
    if (backup) this.lastBackupAt = now;
    this.saving = this.saving
      .then(() => saveBoardFile(file, text, backup))
      .catch(() => {
        this.saveErrors++;
      });
    await this.saving;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const now = monotonicNow();
    this.controls.close(now);
    this.transport.pump();
    await this.autosave();
    await this.transport.close();
  }
}
