import { describe, expect, it } from 'vitest';
import type { RendezvousMessage } from './rendezvous';
import {
  decodeRendezvous,
  encodeRendezvous,
  isRendezvousDecodeError,
  isSessionName,
  MAX_RENDEZVOUS_SIZE,
  MAX_SESSION_HOSTS,
  MIN_REQUEST_SIZE,
  RENDEZVOUS_MARKER,
} from './rendezvous';
import { Rng } from './rng';
import { addressScope, canonicalAddress, ipBytes, ipText } from './wire-address';
import { HANDSHAKE_MARKER } from './handshake';

const bytes = (n: number, v = 7) => new Uint8Array(n).fill(v);
const v4 = { address: '203.0.113.9', port: 40_123 };
const v6 = { address: '2001:db8::42', port: 7350 };
const lan = { address: '192.168.1.20', port: 7350 };
const session = {
  name: 'Design review',
  version: 4,
  users: 3,
  listed: true,
  host: v4,
  candidates: [lan, v6],
};

const samples: RendezvousMessage[] = [
  { type: 'probe', request: 1 },
  { type: 'cookie', request: 2, cookie: bytes(16), observed: v6 },
  {
    type: 'register',
    request: 3,
    cookie: bytes(16),
    ownerKey: bytes(16, 9),
    version: 4,
    name: 'Design review',
    listed: false,
    users: 12,
    candidates: [lan],
  },
  { type: 'registered', request: 4, observed: v4, heartbeatMs: 2000, ttlMs: 7000 },
  { type: 'deregister', request: 5, cookie: bytes(16), ownerKey: bytes(16), name: 'x' },
  { type: 'lookup', request: 6, cookie: bytes(16), name: 'Ünïcode ☃' },
  { type: 'session', request: 7, session },
  { type: 'list', request: 8, cookie: bytes(16), cursor: 48 },
  {
    type: 'listing',
    request: 9,
    entries: [
      { name: 'a', version: 4, users: 1 },
      { name: 'b', version: 4, users: 65_535 },
    ],
    next: 0,
  },
  {
    type: 'introduce',
    request: 10,
    cookie: bytes(16),
    name: 'Design review',
    nonce: bytes(8),
    candidates: [],
  },
  { type: 'intro', request: 11, nonce: bytes(8), session },
  { type: 'peer', nonce: bytes(8), name: 'Design review', observed: v4, candidates: [lan] },
  { type: 'punch', nonce: bytes(8, 1) },
  {
    type: 'register',
    request: 13,
    cookie: bytes(16),
    ownerKey: bytes(16, 9),
    version: 4,
    name: 'relayed',
    listed: true,
    users: 2,
    candidates: [],
    relayed: { address: '203.0.113.3', port: 49_170 },
    wantRelay: true,
  },
  {
    type: 'registered',
    request: 14,
    observed: v4,
    heartbeatMs: 2000,
    ttlMs: 7000,
    relay: {
      server: { address: '203.0.113.3', port: 3478 },
      username: '1764100000:gb',
      password: 'c2VjcmV0IGJ1dCBub3QgcmVhbGx5',
    },
  },
  {
    type: 'intro',
    request: 15,
    nonce: bytes(8),
    session: { ...session, relayed: { address: '203.0.113.3', port: 49_171 } },
    relay: { server: { address: '203.0.113.3', port: 3478 }, username: 'u', password: 'p' },
  },
  { type: 'error', request: 12, error: 'not-found' },
  // NAT mappings and the reflector's port (a hard NAT's traversal).
  { type: 'cookie', request: 16, cookie: bytes(16), observed: v6, reflector: 65_535 },
  {
    type: 'register',
    request: 17,
    cookie: bytes(16),
    ownerKey: bytes(16, 9),
    version: 4,
    name: 'behind a hard NAT',
    listed: false,
    users: 1,
    candidates: [],
    nat: { kind: 'dependent', delta: -65_535, last: 1 },
  },
  {
    type: 'introduce',
    request: 18,
    cookie: bytes(16),
    name: 'x',
    nonce: bytes(8),
    candidates: [lan],
    nat: { kind: 'independent' },
  },
  {
    type: 'peer',
    nonce: bytes(8),
    name: 'x',
    observed: v4,
    candidates: [],
    nat: { kind: 'dependent', delta: 1, last: 30_001 },
  },
  {
    type: 'session',
    request: 19,
    session: { ...session, nat: { kind: 'dependent', delta: 65_535, last: 65_535 } },
  },
  // A session's mirrors: one more host registering, and the hosts a joiner is told of.
  {
    type: 'mirror',
    request: 20,
    cookie: bytes(16),
    ownerKey: bytes(16, 9),
    version: 4,
    name: 'Design review',
    listed: false,
    users: 4,
    candidates: [lan],
  },
  {
    type: 'session',
    request: 21,
    session: {
      ...session,
      mirrors: [
        { host: v6, candidates: [lan] },
        { host: lan, candidates: [] },
      ],
    },
  },
  {
    type: 'intro',
    request: 22,
    nonce: bytes(8),
    session: { ...session, mirrors: [{ host: v6, candidates: [], relayed: v4 }] },
    relay: { server: { address: '203.0.113.3', port: 3478 }, username: 'u', password: 'p' },
  },
];

describe('rendezvous messages', () => {
  it('round-trip every type, bit-packed and in the rendezvous marker range', () => {
    for (const m of samples) {
      const b = encodeRendezvous(m);
      expect(b[0] ?? 0, m.type).toBeGreaterThanOrEqual(RENDEZVOUS_MARKER);
      expect(decodeRendezvous(b), m.type).toEqual(m);
    }
  });

  it('pads every request past any reply to an unverified source (no amplification)', () => {
    const requests = samples.filter((m) =>
      ['probe', 'register', 'deregister', 'lookup', 'list', 'introduce'].includes(m.type),
    );
    // The largest replies a directory (or its reflector) sends before a source proves its address: COOKIE (IPv6,
    // with the reflector's port) and ERROR.
    const cookie = encodeRendezvous({
      type: 'cookie',
      request: 0xffffffff,
      cookie: bytes(16),
      observed: { address: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', port: 65_535 },
      reflector: 65_535,
    }).length;
    const error = encodeRendezvous({
      type: 'error',
      request: 0xffffffff,
      error: 'bad-version',
    }).length;
    expect(Math.max(cookie, error)).toBeLessThanOrEqual(MIN_REQUEST_SIZE);
    for (const m of requests)
      expect(encodeRendezvous(m).length).toBeGreaterThanOrEqual(MIN_REQUEST_SIZE);
    // A request cut below the padding is refused before anything is read.
    const probe = encodeRendezvous({ type: 'probe', request: 1 }).subarray(0, 10);
    expect(decodeRendezvous(probe)).toMatchObject({ error: 'short' });
  });

  it('are told apart from handshake and data packets by their first byte', () => {
    expect(RENDEZVOUS_MARKER).toBeGreaterThan(HANDSHAKE_MARKER | 5);
    expect(decodeRendezvous(new Uint8Array([HANDSHAKE_MARKER | 1, 0, 0]))).toMatchObject({
      error: 'unknown-type',
    });
  });

  it('refuse names that would mislead a list or a log', () => {
    expect(isSessionName('Team board')).toBe(true);
    for (const bad of ['', ' lead', 'trail ', 'bell\u0007', 'x'.repeat(49), 'é'.repeat(25)])
      expect(isSessionName(bad), JSON.stringify(bad)).toBe(false);
  });

  it('survive hostile bytes: random, truncated and bit-flipped input gives typed errors, never a throw', () => {
    const seed = 20261125;
    const rng = new Rng(seed);
    let decoded = 0;
    for (let i = 0; i < 20_000; i++) {
      let b: Uint8Array;
      const base = encodeRendezvous(samples[rng.uint32() % samples.length] as RendezvousMessage);
      switch (i % 3) {
        case 0:
          b = new Uint8Array(rng.uint32() % 80);
          for (let k = 0; k < b.length; k++) b[k] = rng.uint32() & 0xff;
          if (b.length > 0) b[0] = RENDEZVOUS_MARKER | (rng.uint32() % 32);
          break;
        case 1:
          b = base.subarray(0, rng.uint32() % base.length);
          break;
        default:
          b = base.slice();
          {
            const at = 1 + (rng.uint32() % (b.length - 1));
            b[at] = (b[at] ?? 0) ^ (1 << (rng.uint32() % 8));
          }
      }
      let r;
      try {
        r = decodeRendezvous(b);
      } catch (e) {
        throw new Error(`seed ${seed}, case ${i}: threw ${String(e)}`);
      }
      if (!isRendezvousDecodeError(r)) decoded++;
    }
    expect(decoded).toBeGreaterThan(0);
    expect(decodeRendezvous(new Uint8Array(1300).fill(0xe1))).toMatchObject({ error: 'long' });
  });
});

describe('addresses on the wire', () => {
  it('parse and print IPv4 and IPv6 canonically', () => {
    expect(ipText(ipBytes('10.0.0.1') ?? new Uint8Array())).toBe('10.0.0.1');
    expect(ipText(ipBytes('::ffff:10.0.0.1') ?? new Uint8Array())).toBe('10.0.0.1');
    expect(ipText(ipBytes('2001:0db8:0:0:0:0:0:1') ?? new Uint8Array())).toBe('2001:db8::1');
    expect(ipText(ipBytes('::1') ?? new Uint8Array())).toBe('::1');
    expect(ipText(ipBytes('64:ff9b::192.0.2.33') ?? new Uint8Array())).toBe('64:ff9b::c000:221');
    expect(ipText(ipBytes('fe80:0:0:1:0:0:0:1') ?? new Uint8Array())).toBe('fe80:0:0:1::1');
    expect(canonicalAddress({ address: '2001:DB8::0:1', port: 5 })).toEqual({
      address: '2001:db8::1',
      port: 5,
    });
    for (const bad of ['1.2.3', '1.2.3.256', '01.2.3.4', '1::2::3', 'fe80::1%eth0', 'host', ':::'])
      expect(ipBytes(bad), bad).toBeUndefined();
  });

  it('know which addresses are private, loopback or public', () => {
    expect(addressScope('192.168.1.4')).toBe('private');
    expect(addressScope('100.64.3.1')).toBe('carrier');
    expect(addressScope('127.0.0.1')).toBe('loopback');
    expect(addressScope('203.0.113.7')).toBe('public');
    expect(addressScope('fd00::2')).toBe('private');
    expect(addressScope('fe80::1')).toBe('link-local');
    expect(addressScope('::1')).toBe('loopback');
    expect(addressScope('2001:db8::1')).toBe('public');
  });

  it('carry up to 7 mirrors of a session in one datagram, with a relay grant, and an older reply reads as none', () => {
    const mirror = (i: number) => ({
      host: { address: `2001:db8::${i + 1}`, port: 7350 },
      candidates: [
        { address: `2001:db8:1::${i + 1}`, port: 7350 },
        { address: `2001:db8:2::${i + 1}`, port: 7350 },
      ],
      relayed: { address: `2001:db8:3::${i + 1}`, port: 7350 },
    });
    const widest: RendezvousMessage = {
      type: 'intro',
      request: 1,
      nonce: bytes(8),
      session: {
        name: 'x'.repeat(48),
        version: 4,
        users: 65_535,
        listed: true,
        host: v6,
        candidates: [v6, v6, v6, v6],
        relayed: v6,
        nat: { kind: 'dependent', delta: -65_535, last: 65_535 },
        mirrors: Array.from({ length: MAX_SESSION_HOSTS - 1 }, (_, i) => mirror(i)),
      },
      relay: { server: v6, username: 'u'.repeat(128), password: 'p'.repeat(128) },
    };
    const wire = encodeRendezvous(widest);
    expect(wire.length).toBeLessThanOrEqual(MAX_RENDEZVOUS_SIZE);
    expect(decodeRendezvous(wire)).toEqual(widest);
    // Bounded: no eighth mirror, no third candidate for one.
    const eight = { ...widest.session, mirrors: Array.from({ length: 8 }, (_, i) => mirror(i)) };
    expect(() => encodeRendezvous({ ...widest, session: eight })).toThrow(RangeError);
    const three = { ...widest.session, mirrors: [{ ...mirror(0), candidates: [v4, v4, v4] }] };
    expect(() => encodeRendezvous({ ...widest, session: three })).toThrow(RangeError);
    // What an older directory sends (no mirrors written) reads as a session without mirrors.
    const old = encodeRendezvous({ type: 'session', request: 2, session });
    expect(decodeRendezvous(old)).toEqual({ type: 'session', request: 2, session });
    // Mutated (seeded), it never throws, and whatever decodes stays within the bounds.
    const seed = 1515;
    const rng = new Rng(seed);
    for (let k = 0; k < 3000; k++) {
      const b = wire.slice();
      for (let f = 0; f < 3; f++) {
        const at = 1 + rng.int(b.length - 1);
        b[at] = (b[at] ?? 0) ^ (1 << rng.int(8));
      }
      const m = decodeRendezvous(b.slice(0, b.length - rng.int(4)));
      if (isRendezvousDecodeError(m) || m.type !== 'intro') continue;
      const mirrors = m.session.mirrors ?? [];
      expect(mirrors.length, `seed ${seed}`).toBeLessThan(MAX_SESSION_HOSTS);
      for (const x of mirrors) expect(x.candidates.length, `seed ${seed}`).toBeLessThanOrEqual(2);
    }
  });
});
