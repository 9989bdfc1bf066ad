// Runs a directory on a real UDP socket (through net/transport, which owns the socket and the timer).
import { randomBytes } from 'node:crypto';
import type { PeerAddress } from '../net/address';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { DirectoryEvent, DirectoryOptions } from './directory';
import { Directory } from './directory';

export interface DirectoryRun {
  readonly bind: string;
  readonly port: number;
  readonly options?: Partial<Omit<DirectoryOptions, 'secret'>>;
}

export class DirectoryRunner {
  private readonly listeners = new Set<(e: DirectoryEvent) => void>();

  private constructor(
    readonly directory: Directory,
    private readonly transport: UdpTransport<Directory>,
  ) {}

  static async open(o: DirectoryRun): Promise<DirectoryRunner> {
    const directory = new Directory({ ...o.options, secret: new Uint8Array(randomBytes(32)) });
    const transport = await UdpTransport.open(directory, { port: o.port, bind: o.bind });
    const runner = new DirectoryRunner(directory, transport);
    transport.onActivity = () => {
      for (let e = directory.pollEvent(); e !== undefined; e = directory.pollEvent())
        for (const l of runner.listeners) l(e);
    };
    return runner;
  }

  get address(): PeerAddress {
    return this.transport.address;
  }

  on(listener: (e: DirectoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Figures for a status line: sessions and what the directory refused. */
  stats(): Record<string, number> {
    return {
      sessions: this.directory.sessionCount,
      ...this.directory.counters,
      now: monotonicNow(),
    };
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
