// The nftables rules of a lab NAT router (WAN interface `wan`): which mapping it keeps, whether it drops unsolicited datagrams, which UDP it lets out. Pure text; knows nothing of namespaces.

/**
 * `cone`: plain masquerade, which keeps the inside port when free (endpoint-independent mapping).
 * `symmetric`: fully-random masquerade, a new public port per destination (address-and-port-dependent mapping).
 * Filtering is address-and-port dependent in both: conntrack only lets in replies to flows the inside opened.
 */
export type NatKind = 'cone' | 'symmetric';

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
}

/** The nftables script for a NAT router whose WAN interface is `wan`; it replaces any earlier one. */
export function natRuleset(rules: NatRules): string {
  const masquerade = rules.kind === 'cone' ? 'masquerade' : 'masquerade fully-random';
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
    `    oifname "wan" ${masquerade}`,
    '  }',
    chain('through_router', 'forward', [...unsolicited, ...udp]),
    chain('to_router', 'input', unsolicited),
    '}',
    '',
  ].join('\n');
}
