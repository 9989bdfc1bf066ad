// Test kit: N mirrors' CRIMP groups alone (no links) over the stack's SimNetwork in virtual time, each datagram a
// simulated UDP datagram between the mirrors' addresses; records every delivery and which datagrams carrying a
// payload's first transmission were lost. For the seeded tests and the crimp bench. Knows nothing of payloads.
import type { PeerAddress } from '../../net/address';
import type { Transmit } from '../../net/endpoint-types';
import type { Impairment } from '../../net/impairment';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { CrimpConfig, DeliveryInfo } from '../crimp';
import { MirrorGroup } from '../crimp';
import { decodeCrimpDatagram, isCrimpDecodeError } from '../crimp-wire';
import type { MirrorId } from '../mirror-id';

export interface Delivery {
  readonly at: number;
  readonly repaired: boolean;
  /** When the mirror first knew it lacked the payload (absent: it never missed it). */
  readonly detectedAt: number | undefined;
  /** How many times it was handed up (exactly once is the guarantee). */
  count: number;
}

export class CrimpSimNode {
  readonly group: MirrorGroup;
  readonly address: PeerAddress;
  private readonly outbox: Transmit[] = [];
  /** By `origin:seq`. */
  readonly deliveries = new Map<string, Delivery>();
  /** The time of the call being handled (deliver() has no clock of its own). */
  private now = 0;

  constructor(
    readonly id: MirrorId,
    members: readonly MirrorId[],
    rng: Rng,
    addressOf: (id: MirrorId) => PeerAddress,
    config: Partial<CrimpConfig>,
  ) {
    this.address = addressOf(id);
    this.group = new MirrorGroup({
      self: id,
      members,
      rng,
      now: 0,
      config,
      send: (to, bytes) => this.outbox.push({ to: addressOf(to), bytes }),
      deliver: (origin, seq, _payload, info: DeliveryInfo) => {
        const key = `${origin}:${seq}`;
        const d = this.deliveries.get(key);
        if (d !== undefined) d.count++;
        else
          this.deliveries.set(key, {
            at: this.now,
            repaired: info.repaired,
            detectedAt: info.detectedAt,
            count: 1,
          });
      },
    });
  }

  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array): void {
    this.now = now;
    this.group.receive(now, Number(from.address.split('.')[3]) - 1, bytes);
  }

  handleTimeout(now: number): void {
    this.now = now;
    this.group.tick(now);
  }

  nextTimeout(): number {
    return this.group.nextTimeout();
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }
}

export interface CrimpSimOptions {
  readonly seed: number;
  readonly mirrors: number;
  /** Each direction's conditions (from, to). */
  readonly conditions: (from: MirrorId, to: MirrorId) => Impairment;
  readonly config?: Partial<CrimpConfig>;
}

export class CrimpSim {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly nodes: CrimpSimNode[] = [];
  /** When each payload was originated, by `origin:seq`. */
  readonly originatedAt = new Map<string, number>();
  /** First transmissions of payloads (DATA, not repairs) in datagrams the network lost. */
  lostFirstTransmissions = 0;
  firstTransmissions = 0;

  constructor(o: CrimpSimOptions) {
    this.rng = new Rng(o.seed);
    this.net = new SimNetwork(new Rng(o.seed ^ 0x0c41_3b));
    this.sim = new SimHarness(this.net);
    const ids = Array.from({ length: o.mirrors }, (_, i) => i);
    const addressOf = (id: MirrorId): PeerAddress => ({ address: `10.0.0.${id + 1}`, port: 7000 });
    for (const from of ids)
      for (const to of ids)
        if (from !== to)
          this.net.setConditions(addressOf(from), addressOf(to), o.conditions(from, to));
    for (const id of ids) {
      const node = new CrimpSimNode(id, ids, new Rng(o.seed * 64 + id), addressOf, o.config ?? {});
      this.nodes.push(node);
      this.sim.add(node.address, node);
    }
    this.countLosses();
  }

  originate(node: CrimpSimNode, payload: Uint8Array): boolean {
    const r = node.group.originate(this.sim.now, payload);
    if (r.kind !== 'sent') return false;
    this.originatedAt.set(`${node.id}:${r.seq}`, this.sim.now);
    return true;
  }

  /** Wraps the network's send to learn which lost datagrams carried a payload's first transmission. */
  private countLosses(): void {
    const net = this.net;
    const send = net.send.bind(net);
    net.send = (now, datagram) => {
      const id = net.log.length;
      send(now, datagram);
      const entry = net.log[id];
      const d = decodeCrimpDatagram(datagram.bytes, Infinity);
      if (entry === undefined || isCrimpDecodeError(d)) return;
      const firsts = d.messages.filter((m) => m.kind === 'data' && !m.repair).length;
      this.firstTransmissions += firsts;
      if (entry.deliveredAt.length === 0) this.lostFirstTransmissions += firsts;
    };
  }
}
