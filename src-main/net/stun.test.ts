// STUN codec: RFC 5769's test vectors byte for byte (MESSAGE-INTEGRITY, FINGERPRINT, XOR-MAPPED-ADDRESS), round
// trips of every attribute, ChannelData framing, typed errors, and a seeded fuzz that prints its seed on failure.
import { describe, expect, it } from 'vitest';
import { Rng } from './rng';
import type { DecodedStun, StunAttribute, StunClass, StunMessage } from './stun';
import { ipText } from './wire-address';
import {
  AttrCode,
  crc32,
  decodeChannelData,
  decodeStun,
  encodeChannelData,
  encodeStun,
  findAttribute,
  isStunDecodeError,
  longTermKey,
  serverDatagramKind,
  StunMethod,
  stunType,
  verifyIntegrity,
} from './stun';

const hex = (s: string): Uint8Array =>
  Uint8Array.from((s.replace(/\s+/g, '').match(/../g) ?? []).map((h) => parseInt(h, 16)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function decoded(bytes: Uint8Array, rawRequired: readonly number[] = []): DecodedStun {
  const m = decodeStun(bytes, { rawRequired });
  if (isStunDecodeError(m)) throw new Error(`decode failed: ${JSON.stringify(m)}`);
  return m;
}

// RFC 5769 §2.1–2.4, typed in from the RFC's figures (the padding of the first three is spaces, 0x20).
const SHORT_TERM_PASSWORD = 'VOkJxbRl1RmTxUk/WvJxBt';
const RFC5769_REQUEST = hex(`
  00 01 00 58  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
  80 22 00 10  53 54 55 4e  20 74 65 73  74 20 63 6c  69 65 6e 74
  00 24 00 04  6e 00 01 ff
  80 29 00 08  93 2f f9 b1  51 26 3b 36
  00 06 00 09  65 76 74 6a  3a 68 36 76  59 20 20 20
  00 08 00 14  9a ea a7 0c  bf d8 cb 56  78 1e f2 b5  b2 d3 f2 49  c1 b5 71 a2
  80 28 00 04  e5 7a 3b cf`);
const RFC5769_IPV4_RESPONSE = hex(`
  01 01 00 3c  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
  80 22 00 0b  74 65 73 74  20 76 65 63  74 6f 72 20
  00 20 00 08  00 01 a1 47  e1 12 a6 43
  00 08 00 14  2b 91 f5 99  fd 9e 90 c3  8c 74 89 f9  2a f9 ba 53  f0 6b e7 d7
  80 28 00 04  c0 7d 4c 96`);
const RFC5769_IPV6_RESPONSE = hex(`
  01 01 00 48  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
  80 22 00 0b  74 65 73 74  20 76 65 63  74 6f 72 20
  00 20 00 14  00 02 a1 47  01 13 a9 fa  a5 d3 f1 79  bc 25 f4 b5  be d2 b9 d9
  00 08 00 14  a3 82 95 4e  4b e6 7b f1  17 84 c9 7c  82 92 c2 75  bf e3 ed 41
  80 28 00 04  c8 fb 0b 4c`);
const RFC5769_LONG_TERM_REQUEST = hex(`
  00 01 00 60  21 12 a4 42  78 ad 34 33  c6 ad 72 c0  29 da 41 2e
  00 06 00 12  e3 83 9e e3  83 88 e3 83  aa e3 83 83  e3 82 af e3  82 b9 00 00
  00 15 00 1c  66 2f 2f 34  39 39 6b 39  35 34 64 36  4f 4c 33 34  6f 4c 39 46  53 54 76 79  36 34 73 41
  00 14 00 0b  65 78 61 6d  70 6c 65 2e  6f 72 67 00
  00 08 00 14  f6 70 24 65  6d d6 4a 3e  02 b8 e0 71  2e 85 c9 a2  8c a8 96 66`);
const RFC5769_TRANSACTION = hex('b7 e7 a7 01 bc 34 d6 86 fa 87 df ae');
const PRIORITY = 0x0024;
const ICE_CONTROLLED = 0x8029;

describe('RFC 5769 test vectors', () => {
  it('§2.1 sample request (short-term credentials): integrity and fingerprint match, and it re-encodes exactly', () => {
    const m = decoded(RFC5769_REQUEST, [PRIORITY]);
    expect([m.method, m.cls, m.fingerprint]).toEqual([StunMethod.binding, 'request', true]);
    expect(findAttribute(m, 'software')?.value).toBe('STUN test client');
    expect(findAttribute(m, 'username')?.value).toBe('evtj:h6vY');
    expect(verifyIntegrity(m, text(SHORT_TERM_PASSWORD))).toBe(true);
    expect(verifyIntegrity(m, text('VOkJxbRl1RmTxUk/WvJxBu'))).toBe(false);
    // Without being told PRIORITY (comprehension-required, ICE's) the request is refused.
    expect(decodeStun(RFC5769_REQUEST)).toEqual({ error: 'unknown-required', attribute: PRIORITY });
    const again = encodeStun(
      {
        method: StunMethod.binding,
        cls: 'request',
        transactionId: RFC5769_TRANSACTION,
        attributes: [
          { type: 'software', value: 'STUN test client' },
          { type: 'raw', code: PRIORITY, value: hex('6e 00 01 ff') },
          { type: 'raw', code: ICE_CONTROLLED, value: hex('93 2f f9 b1 51 26 3b 36') },
          { type: 'username', value: 'evtj:h6vY' },
        ],
      },
      { integrityKey: text(SHORT_TERM_PASSWORD), fingerprint: true, padByte: 0x20 },
    );
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(RFC5769_REQUEST).toString('hex'));
  });

  it.each([
    ['§2.2 IPv4', RFC5769_IPV4_RESPONSE, { address: '192.0.2.1', port: 32853 }],
    [
      '§2.3 IPv6',
      RFC5769_IPV6_RESPONSE,
      { address: '2001:db8:1234:5678:11:2233:4455:6677', port: 32853 },
    ],
  ])(
    '%s response: XOR-MAPPED-ADDRESS, integrity and fingerprint match, and it re-encodes exactly',
    (_, bytes, mapped) => {
      const m = decoded(bytes);
      expect([m.method, m.cls, m.fingerprint]).toEqual([StunMethod.binding, 'success', true]);
      expect(findAttribute(m, 'xor-mapped-address')?.address).toEqual(mapped);
      expect(findAttribute(m, 'software')?.value).toBe('test vector');
      expect(verifyIntegrity(m, text(SHORT_TERM_PASSWORD))).toBe(true);
      const again = encodeStun(
        {
          method: StunMethod.binding,
          cls: 'success',
          transactionId: RFC5769_TRANSACTION,
          attributes: [
            { type: 'software', value: 'test vector' },
            { type: 'xor-mapped-address', address: mapped },
          ],
        },
        { integrityKey: text(SHORT_TERM_PASSWORD), fingerprint: true, padByte: 0x20 },
      );
      expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
    },
  );

  it('§2.4 request with long-term credentials: MD5(username:realm:password) keys the integrity', () => {
    const m = decoded(RFC5769_LONG_TERM_REQUEST);
    const username = '\u30de\u30c8\u30ea\u30c3\u30af\u30b9'; // "matrix" in katakana
    expect(findAttribute(m, 'username')?.value).toBe(username);
    expect(findAttribute(m, 'nonce')?.value).toBe('f//499k954d6OL34oL9FSTvy64sA');
    expect(findAttribute(m, 'realm')?.value).toBe('example.org');
    expect(m.fingerprint).toBe(false);
    // The RFC's password is "The<U+00AD>M<U+00AA>trIX", which SASLprep turns into "TheMatrIX".
    const key = longTermKey(username, 'example.org', 'TheMatrIX');
    expect(verifyIntegrity(m, key)).toBe(true);
    expect(verifyIntegrity(m, longTermKey(username, 'example.org', 'TheMatrix'))).toBe(false);
    const again = encodeStun(
      {
        method: StunMethod.binding,
        cls: 'request',
        transactionId: hex('78 ad 34 33 c6 ad 72 c0 29 da 41 2e'),
        attributes: [
          { type: 'username', value: username },
          { type: 'nonce', value: 'f//499k954d6OL34oL9FSTvy64sA' },
          { type: 'realm', value: 'example.org' },
        ],
      },
      { integrityKey: key },
    );
    expect(Buffer.from(again).toString('hex')).toBe(
      Buffer.from(RFC5769_LONG_TERM_REQUEST).toString('hex'),
    );
  });

  it('a flipped bit fails the fingerprint, or (in the MAC itself, fingerprint fixed up) the integrity', () => {
    const body = RFC5769_IPV4_RESPONSE.slice();
    body[30] = (body[30] ?? 0) ^ 1;
    expect(decodeStun(body)).toEqual({ error: 'bad-fingerprint' });
    // Re-encode with a wrong key: the fingerprint is then right but the MAC is not.
    const forged = encodeStun(
      {
        method: StunMethod.binding,
        cls: 'success',
        transactionId: RFC5769_TRANSACTION,
        attributes: [
          { type: 'xor-mapped-address', address: { address: '192.0.2.1', port: 32853 } },
        ],
      },
      { integrityKey: text('not the password'), fingerprint: true },
    );
    expect(verifyIntegrity(decoded(forged), text(SHORT_TERM_PASSWORD))).toBe(false);
  });
});

describe('STUN codec', () => {
  it('packs method and class as RFC 8489 §5 and RFC 8656 list them', () => {
    expect(stunType(StunMethod.allocate, 'request')).toBe(0x0003);
    expect(stunType(StunMethod.allocate, 'success')).toBe(0x0103);
    expect(stunType(StunMethod.allocate, 'error')).toBe(0x0113);
    expect(stunType(StunMethod.send, 'indication')).toBe(0x0016);
    expect(stunType(StunMethod.data, 'indication')).toBe(0x0017);
    expect(stunType(StunMethod.channelBind, 'success')).toBe(0x0109);
    expect(stunType(0xfff, 'error')).toBe(0x3fff);
    expect(crc32(text('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips every attribute, method and class', () => {
    const rng = new Rng(5769);
    const classes: StunClass[] = ['request', 'indication', 'success', 'error'];
    for (let i = 0; i < 200; i++) {
      const m = randomMessage(rng, classes[i % 4] ?? 'request');
      const key = rng.bool() ? rng.bytes(16) : undefined;
      const fingerprint = rng.bool();
      const bytes = encodeStun(m, { ...(key && { integrityKey: key }), fingerprint });
      expect(bytes.length % 4, `seed 5769, case ${i}`).toBe(0);
      const d = decoded(bytes);
      expect(
        { ...d, integrity: undefined, fingerprint: undefined },
        `seed 5769, case ${i}`,
      ).toEqual({
        ...m,
        integrity: undefined,
        fingerprint: undefined,
      });
      expect(d.fingerprint).toBe(fingerprint);
      if (key !== undefined) expect(verifyIntegrity(d, key)).toBe(true);
      else expect(d.integrity).toBeUndefined();
    }
  });

  it('ignores unknown comprehension-optional attributes and what follows MESSAGE-INTEGRITY', () => {
    const id = new Rng(1).bytes(12);
    const bytes = encodeStun({
      method: StunMethod.refresh,
      cls: 'success',
      transactionId: id,
      attributes: [
        { type: 'raw', code: 0xc001, value: hex('01 02 03') },
        { type: 'lifetime', seconds: 600 },
      ],
    });
    expect(decoded(bytes).attributes).toEqual([{ type: 'lifetime', seconds: 600 }]);
    const withTail = encodeStun(
      { method: StunMethod.refresh, cls: 'success', transactionId: id, attributes: [] },
      { integrityKey: text('k') },
    );
    const tail = encodeStun({
      method: StunMethod.refresh,
      cls: 'success',
      transactionId: id,
      attributes: [{ type: 'lifetime', seconds: 7 }],
    });
    const joined = new Uint8Array([...withTail, ...tail.subarray(20)]);
    joined[3] = joined.length - 20;
    const d = decoded(joined);
    expect(d.attributes).toEqual([]);
    expect(verifyIntegrity(d, text('k'))).toBe(true);
  });

  it('returns typed errors for malformed messages', () => {
    const ok = encodeStun({
      method: StunMethod.allocate,
      cls: 'request',
      transactionId: new Rng(2).bytes(12),
      attributes: [{ type: 'requested-transport', protocol: 17 }],
    });
    const bad = (f: (b: Uint8Array) => Uint8Array): unknown => decodeStun(f(ok.slice()));
    expect(bad((b) => b.subarray(0, 19))).toEqual({ error: 'short' });
    expect(bad((b) => ((b[0] = 0x40), b))).toEqual({ error: 'not-stun' });
    expect(bad((b) => ((b[4] = 0), b))).toEqual({ error: 'bad-cookie' });
    expect(bad((b) => b.subarray(0, 24))).toEqual({ error: 'bad-length' });
    expect(bad((b) => ((b[3] = 9), b))).toEqual({ error: 'bad-length' });
    expect(bad((b) => ((b[23] = 5), b))).toEqual({ error: 'bad-length', attribute: 0x0019 });
    expect(bad((b) => ((b[23] = 3), b))).toEqual({ error: 'bad-attribute', attribute: 0x0019 });
    expect(bad((b) => ((b[21] = 0x7f), b))).toEqual({
      error: 'unknown-required',
      attribute: 0x007f,
    });
    const address = (v: string): unknown =>
      decodeStun(
        encodeStun({
          method: StunMethod.data,
          cls: 'indication',
          transactionId: new Rng(3).bytes(12),
          attributes: [{ type: 'raw', code: AttrCode.xorPeerAddress, value: hex(v) }],
        }),
      );
    expect(address('00 03 00 01 01 02 03 04')).toEqual({ error: 'bad-attribute', attribute: 0x12 });
    expect(address('00 01 00 01 01 02 03')).toEqual({ error: 'bad-attribute', attribute: 0x12 });
    expect(address('00 02 00 01 01 02 03 04')).toEqual({ error: 'bad-attribute', attribute: 0x12 });
    // A valid FINGERPRINT (over the final length) followed by one more attribute.
    const after = encodeStun({
      method: 1,
      cls: 'request',
      transactionId: new Rng(4).bytes(12),
      attributes: [
        { type: 'raw', code: AttrCode.fingerprint, value: new Uint8Array(4) },
        { type: 'software', value: 'x' },
      ],
    });
    const crc = (crc32(after.subarray(0, 20)) ^ 0x5354554e) >>> 0;
    new DataView(after.buffer).setUint32(24, crc);
    expect(decodeStun(after)).toEqual({ error: 'bad-attribute', attribute: AttrCode.fingerprint });
  });

  it('frames ChannelData: channel, length, optional padding; refuses bad channels and lengths', () => {
    const data = hex('01 02 03 04 05');
    const plain = encodeChannelData(0x4000, data);
    expect(Buffer.from(plain).toString('hex')).toBe('400000050102030405');
    expect(decodeChannelData(plain)).toEqual({ channel: 0x4000, data });
    const padded = encodeChannelData(0x4fff, data, true);
    expect(padded.length).toBe(12);
    expect(decodeChannelData(padded)).toEqual({ channel: 0x4fff, data });
    expect(serverDatagramKind(plain)).toBe('channel-data');
    expect(serverDatagramKind(RFC5769_REQUEST)).toBe('stun');
    expect(serverDatagramKind(hex('c0'))).toBe('other');
    expect(decodeChannelData(hex('40 00 00'))).toEqual({ error: 'short' });
    expect(decodeChannelData(hex('50 00 00 00'))).toEqual({ error: 'bad-channel' });
    expect(decodeChannelData(hex('40 00 00 06 01 02 03 04 05'))).toEqual({ error: 'bad-length' });
    expect(decodeChannelData(hex('40 00 00 01 01 02 03 04 05'))).toEqual({ error: 'bad-length' });
    expect(() => encodeChannelData(0x3fff, data)).toThrow(RangeError);
  });
});

describe('STUN decoding of hostile bytes (seeded)', () => {
  const seeds =
    process.env.FUZZ_SEED === undefined ? [1, 2, 3, 4] : [Number(process.env.FUZZ_SEED)];

  it.each(seeds)(
    'never throws, and whatever decodes re-encodes to the same message (seed %i)',
    (seed) => {
      const rng = new Rng(seed);
      const key = rng.bytes(16);
      for (let i = 0; i < 3000; i++) {
        const where = `seed ${seed}, case ${i} (rerun with FUZZ_SEED=${seed})`;
        const input = hostile(rng, key);
        let result: ReturnType<typeof decodeStun>;
        let cd: ReturnType<typeof decodeChannelData>;
        try {
          result = decodeStun(input);
          cd = decodeChannelData(input);
          if (!isStunDecodeError(result)) verifyIntegrity(result, key);
        } catch (err) {
          throw new Error(`${where}: threw ${String(err)}`);
        }
        if (!isStunDecodeError(result)) {
          const again = decoded(encodeStun(result));
          expect(again.attributes, where).toEqual(result.attributes);
          expect([again.method, again.cls], where).toEqual([result.method, result.cls]);
        }
        if (!isStunDecodeError(cd))
          expect(decodeChannelData(encodeChannelData(cd.channel, cd.data)), where).toEqual(cd);
      }
    },
  );
});

function randomAddress(rng: Rng): { address: string; port: number } {
  // Through the codec's own text form (RFC 5952 for IPv6), so equality compares like with like.
  return { address: ipText(rng.bytes(rng.bool() ? 4 : 16)), port: rng.int(65536) };
}

const TEXT_CHARS = [
  'a',
  'b',
  'X',
  'Z',
  '0',
  '9',
  ':',
  '/',
  '+',
  '=',
  ' ',
  '\u00e9',
  '\u30de',
  '\u{1f600}',
];

function randomText(rng: Rng, max: number): string {
  let s = '';
  for (let n = rng.int(max); n > 0; n--) s += rng.pick(TEXT_CHARS);
  return s;
}

function randomAttribute(rng: Rng): StunAttribute {
  switch (rng.int(12)) {
    case 0:
      return { type: 'mapped-address', address: randomAddress(rng) };
    case 1:
      return { type: 'xor-mapped-address', address: randomAddress(rng) };
    case 2:
      return { type: 'xor-peer-address', address: randomAddress(rng) };
    case 3:
      return { type: 'xor-relayed-address', address: randomAddress(rng) };
    case 4:
      return {
        type: rng.pick(['username', 'realm', 'nonce', 'software'] as const),
        value: randomText(rng, 40),
      };
    case 5:
      return { type: 'error-code', code: rng.range(300, 699), reason: randomText(rng, 20) };
    case 6:
      return {
        type: 'unknown-attributes',
        codes: Array.from({ length: rng.int(4) }, () => rng.int(0x10000)),
      };
    case 7:
      return { type: 'lifetime', seconds: rng.uint32() };
    case 8:
      return { type: 'channel-number', channel: rng.range(0x4000, 0x4fff) };
    case 9:
      return { type: 'data', bytes: rng.bytes(rng.int(70)) };
    case 10:
      return { type: 'requested-transport', protocol: rng.int(256) };
    default:
      return { type: 'lifetime', seconds: 0 };
  }
}

function randomMessage(rng: Rng, cls: StunClass): StunMessage {
  return {
    method: rng.int(0x1000),
    cls,
    transactionId: rng.bytes(12),
    attributes: Array.from({ length: rng.int(6) }, () => randomAttribute(rng)),
  };
}

/** Random bytes, or a valid message or ChannelData mutated: bit flips, truncation, a rewritten length. */
function hostile(rng: Rng, key: Uint8Array): Uint8Array {
  const kind = rng.int(4);
  if (kind === 0) return rng.bytes(rng.int(120));
  const base =
    kind === 3
      ? encodeChannelData(rng.range(0x4000, 0x4fff), rng.bytes(rng.int(40)), rng.bool())
      : encodeStun(
          randomMessage(rng, rng.pick(['request', 'indication', 'success', 'error'] as const)),
          {
            ...(rng.bool() && { integrityKey: key }),
            fingerprint: rng.bool(),
          },
        );
  let b = base.slice();
  for (let n = rng.int(4); n > 0; n--) {
    const at = rng.int(b.length);
    b[at] = (b[at] ?? 0) ^ (1 << rng.int(8));
  }
  if (rng.bool(0.2)) b = b.subarray(0, rng.int(b.length + 1));
  if (rng.bool(0.2) && b.length >= 4) {
    b[2] = rng.int(256);
    b[3] = rng.int(256);
  }
  return b;
}
