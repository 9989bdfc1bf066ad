// The nftables rules of a lab NAT router (WAN interface `wan`): which mapping it keeps, whether it drops unsolicited datagrams, which UDP it lets out. Pure text; knows nothing of namespaces.

/**
 * `cone`: plain masquerade, which keeps the inside port when free (endpoint-independent mapping).
 * `symmetric`: fully-random masquerade, a new public port per destination (address-and-port-dependent mapping).
 * `sequential`: also a new public port per destination, but the next one up each time (many carrier and older
 * home NATs allocate so; their next port can be predicted). Needs the router's WAN address.
 * Filtering is address-and-port dependent in all: conntrack only lets in replies to flows the inside opened.
 */
export type NatKind = 'cone' | 'symmetric' | 'sequential';

/**
 * A sequential NAT's ports: from here, in order, wrapping after SEQUENTIAL_PORTS new flows. A hard NAT's fan takes
 * 256 at a time and its mappings live for minutes once answered, so a small range wraps onto live ones (a new flow
 * whose port is taken is dropped: the rule names a single port).
 */
export const SEQUENTIAL_BASE = 30_000;
const SEQUENTIAL_PORTS = 8192;

/** One destination outbound UDP may still reach through a `udpAllowOnly` firewall; no port means any port. */
export interface UdpAllow {
  readonly address: string;
  readonly port?: number;
}

export interface NatRules {
  readonly kind: NatKind;
  /** A typical home router: new inbound flows on the WAN side are dropped (input and forward). */
  readonly dropUnsolicited?: boolean;
  /** A firewall dropping all outbound UDP except to these destinations (a relay is then the only way out). */
  readonly udpAllowOnly?: readonly UdpAllow[];
  /** The router's WAN address (a `sequential` NAT names it in its rule). */
  readonly wanAddress?: string;
}

/** The translation rules of the `nat_out` chain. */
function translation(rules: NatRules): string[] {
  switch (rules.kind) {
    case 'cone':
      return ['oifname "wan" masquerade'];
    case 'symmetric':
      return ['oifname "wan" masquerade fully-random'];
    case 'sequential': {
      if (rules.wanAddress === undefined) throw new Error('a sequential NAT needs its WAN address');
      // numgen counts the flows the rule sees (only a flow's first packet meets a nat chain). A map gives the
      // port: numgen's value used as a port directly would be read in the wrong byte order.
      const ports = Array.from(
        { length: SEQUENTIAL_PORTS },
        (_, i) => `${i} : ${SEQUENTIAL_BASE + i}`,
      ).join(', ');
      return [
        `oifname "wan" meta l4proto udp snat ip to ${rules.wanAddress} : numgen inc mod ${SEQUENTIAL_PORTS} map { ${ports} }`,
        'oifname "wan" masquerade',
      ];
    }
  }
}

/** The nftables script for a NAT router whose WAN interface is `wan`; it replaces any earlier one. */
export function natRuleset(rules: NatRules): string {
  const unsolicited = rules.dropUnsolicited === true ? ['iifname "wan" ct state new drop'] : [];
  const udp =
    rules.udpAllowOnly === undefined
      ? []
      : [
          ...rules.udpAllowOnly.map(
            (a) =>
              `oifname "wan" ip daddr ${a.address}${a.port === undefined ? ' meta l4proto udp' : ` udp dport ${a.port}`} accept`,
          ),
          'oifname "wan" meta l4proto udp drop',
        ];
  const chain = (name: string, hook: string, body: readonly string[]): string =>
    [
      `  chain ${name} {`,
      `    type filter hook ${hook} priority filter; policy accept;`,
      '    ct state established,related accept',
      ...body.map((r) => `    ${r}`),
      '  }',
    ].join('\n');
  return [
    // Declaring then deleting makes the script work whether or not the table exists yet.
    'table ip gblab',
    'delete table ip gblab',
    'table ip gblab {',
    '  chain nat_out {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    ...translation(rules).map((r) => `    ${r}`),
    '  }',
    chain('through_router', 'forward', [...unsolicited, ...udp]),
    chain('to_router', 'input', unsolicited),
    '}',
    '',
  ].join('\n');
}
