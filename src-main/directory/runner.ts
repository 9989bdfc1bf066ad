// Runs a directory on a real UDP socket (through net/transport, which owns the socket and the timer).
import { randomBytes } from 'node:crypto';
import type { PeerAddress } from '../net/address';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { DirectoryEvent, DirectoryOptions } from './directory';
import { Directory } from './directory';
import { Reflector } from './reflector';

export interface DirectoryRun {
  readonly bind: string;
  readonly port: number;
  /** The reflector's port: default the next one up (any free one when `port` is 0); `off`: no reflector. */
  readonly reflectorPort?: number | 'off';
  readonly options?: Partial<Omit<DirectoryOptions, 'secret'>>;
}

export class DirectoryRunner {
  private readonly listeners = new Set<(e: DirectoryEvent) => void>();

  private constructor(
    readonly directory: Directory,
    private readonly transport: UdpTransport<Directory>,
    private readonly reflector: UdpTransport<Reflector> | undefined,
  ) {}

  static async open(o: DirectoryRun): Promise<DirectoryRunner> {
    const reflectorPort = o.reflectorPort ?? (o.port === 0 ? 0 : o.port + 1);
    const reflector =
      reflectorPort === 'off'
        ? undefined
        : await UdpTransport.open(new Reflector(), { port: reflectorPort, bind: o.bind });
    const directory = new Directory({
      ...o.options,
      secret: new Uint8Array(randomBytes(32)),
      ...(reflector === undefined ? {} : { reflectorPort: reflector.address.port }),
    });
    let transport: UdpTransport<Directory>;
    try {
      transport = await UdpTransport.open(directory, { port: o.port, bind: o.bind });
    } catch (e) {
      await reflector?.close();
      throw e;
    }
    const runner = new DirectoryRunner(directory, transport, reflector);
    transport.onActivity = () => {
      for (let e = directory.pollEvent(); e !== undefined; e = directory.pollEvent())
        for (const l of runner.listeners) l(e);
    };
    return runner;
  }

  get address(): PeerAddress {
    return this.transport.address;
  }

  /** The reflector's port, if it has one. */
  get reflectorPort(): number | undefined {
    return this.reflector?.address.port;
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
      ...(this.reflector === undefined
        ? {}
        : { reflectorProbes: this.reflector.endpoint.counters.probes }),
      now: monotonicNow(),
    };
  }

  async close(): Promise<void> {
    await this.transport.close();
    await this.reflector?.close();
  }
}
