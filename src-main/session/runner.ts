// Runs a host or a joining peer over a real UDP socket: binds, drives the session's timers, autosaves the host's
// board. The only session file that touches time and sockets (through net/transport). Knows nothing of the UI.
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { PeerAddress } from '../net/address';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { PacketRecord } from '../net/stream/scheduler';
import { Board, isRefusal } from './board';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import { HostSession } from './host';
import { PeerSession } from './peer';
import type { SessionRate } from './link';

const TICK_MS = 50;
const AUTOSAVE_MS = 5000;

export interface HostRun {
  readonly name: string;
  readonly code: string;
  readonly port: number;
  readonly bind: string;
  readonly boardFile?: string;
  readonly rate?: SessionRate;
  /** Upstream cap, bytes/s. */
  readonly uplinkBytesPerSecond?: number;
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
  /** Autosave failures, counted (the session goes on). */
  saveErrors = 0;
  private flushPending = false;
  private closed = false;

  private constructor(
    readonly controls: Controls,
    readonly transport: UdpTransport<PacketRecord>,
    private readonly boardFile: string | undefined,
  ) {}

  static async host(o: HostRun): Promise<SessionRunner> {
    let board: Board | undefined;
    if (o.boardFile !== undefined) board = await loadBoard(o.boardFile);
    const session = new HostSession(
      {
        name: o.name,
        joinCode: o.code,
        ...(board ? { board } : {}),
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.uplinkBytesPerSecond === undefined
          ? {}
          : { uplinkBytesPerSecond: o.uplinkBytesPerSecond }),
      },
      monotonicNow(),
    );
    const transport = await UdpTransport.open(session.endpoint, { port: o.port, bind: o.bind });
    const runner = new SessionRunner(hostControls(session), transport, o.boardFile);
    runner.lastSavedHash = session.board.hash();
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
    this.saving = this.saving
      .then(async () => {
        // Write then rename: a crash mid-save never leaves a half-written board.
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
      })
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

async function loadBoard(file: string): Promise<Board | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined; // a new board; autosave creates the file
  }
  const board = Board.fromFile(text);
  if (isRefusal(board)) throw new Error(`${file}: ${board.refused}`);
  return board;
}
