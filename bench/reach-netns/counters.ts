// Wire counters for the reach-netns benchmark: nftables counters of a lab namespace's UDP, and a capture on a TURN
// host that measures what the relay wraps around each datagram (channel-data.py). Knows nothing of Ghostboard's
// protocol.
import { fileURLToPath } from 'node:url';
import type { Lab, LabProcess } from '../../test/netlab/lab';

export interface WireCount {
  /** UDP datagrams, both directions. */
  readonly packets: number;
  /** Their IP bytes (IP and UDP headers included). */
  readonly bytes: number;
}

const TABLE = 'gbbench_wire';

/**
 * Counts a namespace's UDP on one interface: all it sends, and what it receives for a socket still open. The second
 * condition (nftables' socket lookup) leaves out datagrams for earlier processes' closed sockets: a host keeps
 * sending to a joiner that quit until it times out, and that is not the next joiner's traffic.
 */
export class UdpCounter {
  private constructor(
    private readonly lab: Lab,
    private readonly ns: string,
  ) {}

  static async open(lab: Lab, ns: string, dev: string): Promise<UdpCounter> {
    const script = [
      `table ip ${TABLE} {`,
      '  counter rx {}',
      '  counter tx {}',
      '  chain inbound {',
      '    type filter hook input priority filter; policy accept;',
      `    iifname "${dev}" meta l4proto udp socket transparent 0 counter name rx`,
      '  }',
      '  chain outbound {',
      '    type filter hook output priority filter; policy accept;',
      `    oifname "${dev}" meta l4proto udp counter name tx`,
      '  }',
      '}',
      '',
    ].join('\n');
    await lab.exec(ns, 'nft', ['-f', '-'], script);
    return new UdpCounter(lab, ns);
  }

  /** Received plus sent so far. */
  async read(): Promise<WireCount> {
    const out = await this.lab.exec(this.ns, 'nft', [
      '-j',
      'list',
      'counters',
      'table',
      'ip',
      TABLE,
    ]);
    const doc = JSON.parse(out) as { nftables?: { counter?: Record<string, unknown> }[] };
    let packets = 0;
    let bytes = 0;
    for (const item of doc.nftables ?? []) {
      if (item.counter === undefined) continue;
      packets += Number(item.counter.packets);
      bytes += Number(item.counter.bytes);
    }
    return { packets, bytes };
  }
}

export const minus = (a: WireCount, b: WireCount): WireCount => ({
  packets: a.packets - b.packets,
  bytes: a.bytes - b.bytes,
});

/** What a TURN server added to the datagrams it carried (channel-data.py's report). */
export interface RelayCounts {
  /** ChannelData datagrams, to and from the server's listening port. */
  readonly channelData: number;
  /** Their UDP payload less their length field, summed: the 4-byte header and any padding. */
  readonly overheadBytes: number;
  /** How many datagrams had each overhead (bytes → count). */
  readonly overheads: Readonly<Record<string, number>>;
  /** Send and Data indications (data before a channel is bound), and their overhead summed the same way. */
  readonly indications: number;
  readonly indicationOverheadBytes: number;
}

const CHANNEL_DATA_PY = fileURLToPath(new URL('./channel-data.py', import.meta.url));
const REPORT_MS = 5_000;

/** A capture on a TURN host's interface that measures each relayed datagram's wrapping. */
export class RelayWatch {
  private constructor(private readonly proc: LabProcess) {}

  static async open(
    lab: Lab,
    ns: string,
    dev: string,
    port: number,
    maxSeconds: number,
  ): Promise<RelayWatch> {
    const proc = lab.spawn(
      ns,
      'python3',
      [CHANNEL_DATA_PY, dev, String(port), String(maxSeconds)],
      `relay-watch@${ns}`,
    );
    await proc.waitFor((e) => e.ev === 'ready', REPORT_MS);
    return new RelayWatch(proc);
  }

  /** The counts since the last take (SIGUSR1 → one report line, and the capture zeroes its counts). */
  async take(): Promise<RelayCounts> {
    const pid = this.proc.pid;
    if (pid === undefined) throw new Error('the relay capture has no pid');
    const from = this.proc.events.length;
    process.kill(pid, 'SIGUSR1');
    const e = await this.proc.waitFor(
      (x) => x.ev === 'relay' && this.proc.events.indexOf(x) >= from,
      REPORT_MS,
    );
    return {
      channelData: Number(e.channelData),
      overheadBytes: Number(e.overheadBytes),
      overheads: e.overheads as Record<string, number>,
      indications: Number(e.indications),
      indicationOverheadBytes: Number(e.indicationOverheadBytes),
    };
  }
}
