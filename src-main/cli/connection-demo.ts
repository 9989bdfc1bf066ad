// Headless peers on the bare connection layer (until the whiteboard session exists): a host that accepts
// joins, a client that joins, and a loopback demo; each prints what its connections cost. Knows nothing of Electron.
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import type { Connection } from '../net/connection';
import { Endpoint } from '../net/endpoint';
import type { EndpointEvent } from '../net/endpoint';
import { UdpTransport, monotonicNow } from '../net/transport';
import { PROTOCOL_VERSION } from '../../shared/version';

export type Print = (line: Record<string, unknown>) => void;

/** A peer that sends a small numbered packet at `rateHz` on every open connection and reports each second. */
export class ConnectionPeer {
  private readonly conns = new Set<Connection<number>>();
  private nextId = 1;
  private tick: NodeJS.Timeout | undefined;
  private report: NodeJS.Timeout | undefined;

  private constructor(
    readonly transport: UdpTransport<Endpoint<number>>,
    private readonly print: Print,
  ) {}

  static async open(
    role: 'host' | 'client',
    joinCode: string,
    bind: string,
    port: number,
    print: Print,
  ): Promise<ConnectionPeer> {
    const endpoint = new Endpoint<number>(
      role,
      { joinCode, protocolVersion: PROTOCOL_VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      monotonicNow(),
    );
    const transport = await UdpTransport.open(endpoint, { port, bind });
    const peer = new ConnectionPeer(transport, print);
    transport.onActivity = () => {
      for (let e = endpoint.pollEvent(); e !== undefined; e = endpoint.pollEvent()) peer.onEvent(e);
    };
    return peer;
  }

  get address(): PeerAddress {
    return this.transport.address;
  }

  connect(to: PeerAddress): void {
    this.transport.endpoint.connect(monotonicNow(), to);
    this.transport.pump();
  }

  /** Starts sending at `rateHz` and printing stats every second. */
  start(rateHz: number): void {
    this.tick = setInterval(() => {
      const now = monotonicNow();
      for (const c of this.conns) {
        const id = this.nextId++;
        c.send(now, (w) => {
          w.writeUint(id, 32);
          return id;
        });
      }
      this.transport.pump();
    }, 1000 / rateHz);
    this.report = setInterval(() => {
      const now = monotonicNow();
      for (const c of this.conns) {
        const s = c.stats(now);
        this.print({
          ev: 'stats',
          peer: c.peer,
          rttMs: Math.round(s.rttMs * 10) / 10,
          lossPct: Math.round(s.lossPct * 10) / 10,
          sendKbps: Math.round(s.wireKbpsOut * 10) / 10,
          recvKbps: Math.round(s.wireKbpsIn * 10) / 10,
          packetsSent: s.packetsSent,
          packetsReceived: s.packetsReceived,
          inFlight: s.inFlight,
        });
      }
    }, 1000);
  }

  private onEvent(e: EndpointEvent<number>): void {
    switch (e.type) {
      case 'connected':
        this.conns.add(e.conn);
        this.print({ ev: 'joined', peer: e.conn.peer });
        return;
      case 'closed':
        this.conns.delete(e.conn);
        this.print({ ev: 'left', peer: e.conn.peer, reason: e.info.reason, detail: e.info.detail });
        return;
      case 'connect-failed':
        this.print({ ev: 'rejected', peer: addressKey(e.peer), reason: e.reason });
        return;
      case 'code-locked':
        this.print({ ev: 'code-locked', failures: e.failures });
        return;
      case 'probed':
      case 'nearer':
        // The demo dials one host: it never probes for the nearest of several.
        return;
    }
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  async close(): Promise<void> {
    clearInterval(this.tick);
    clearInterval(this.report);
    this.transport.endpoint.closeAll(monotonicNow(), 'closed', 'bye');
    await this.transport.close();
  }
}
