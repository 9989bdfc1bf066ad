// CPace against the test vectors of draft-irtf-cfrg-cpace (appendix, "CPace using group ristretto255 and hash
// SHA-512"), then the abort cases the draft requires implementations to test.
import { ristretto255 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import {
  calculateGenerator,
  cpaceIsk,
  cpaceMessage,
  cpaceShare,
  elementFromUniform,
  generatorString,
  intermediateSessionKey,
  prefixFreeCat,
  prependLen,
  sampleScalar,
  scalarFromBytes,
  scalarMult,
  scalarMultVfy,
} from './cpace';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

// The draft's inputs.
const PRS = text('Password');
const CI = text('\nAinitiator\nBresponder');
const SID = hex('7e4b4791d6a8ef019b936c79fb7f2c57');
const ADA = text('ADa');
const ADB = text('ADb');
const YA = scalarFromBytes(hex('1433dd19359992d4e06d740d3993d429af6338ffb4531ce175d22449853a790b'));
const YB = scalarFromBytes(hex('0e6566d32d80a5a1135f99c27f2d637aa24da23027c3fa76b9d1cfd9742fdc00'));

// The draft's outputs.
const GEN_STR =
  '11435061636552697374726574746f3235350850617373776f726464' +
  '00'.repeat(100) +
  '160a41696e69746961746f720a42726573706f6e646572107e4b4791d6a8ef019b936c79fb7f2c57';
const GEN_HASH =
  'a5ce446f63a1ae6d1fee80fa67d0b4004a4b1283ec5549a462bf33a6c1ae06a0' +
  '871f9bf48545f49b2a792eed255ac04f52758c9c60448306810b44e986e3dcbb';
const G = '9c5712178570957204d89ac11acbef789dd076992ba361429acb2bc38c71d14c';
const G_RFC9496 = '5e25411ca1ad7c9debfd0b33ad987a95cefef2d3f15dcc8bd26415a5dfe2e15a';
// RFC 9496 appendix A.3, the first element-derivation vector.
const RFC9496_IN =
  '5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1' +
  '4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6';
const RFC9496_OUT = '3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46';
const SHARE_A = 'a8fc42c4d57b3c7346661011122a00563d0995fd72b62123ae244400e86d7b1a';
const SHARE_B = 'fc8e84ae4ab725909af05a56ef9714db6930e4a5589b3fee6cdd266236676d63';
const MSG_A = '20' + SHARE_A + '03414461';
const MSG_B = '20' + SHARE_B + '03414462';
const K = '3efef1706f42efa354020b087b37fbd9f81cf72a16f4947e4a042a7f1aaa2b6f';
const ISK_IR =
  '0e33c5822bd495dea94ba7af161501f1b2d6a16d464b5d6e1a53dcbfb9244b9b' +
  'a66c09c430fffdfe4fb4e99b4ea46f991a272de0431c132c2c79fd6de1a7e5e4';

describe('CPace test vectors (ristretto255, SHA-512)', () => {
  it('prepends LEB128 lengths', () => {
    expect(toHex(prependLen(new Uint8Array(0)))).toBe('00');
    expect(toHex(prependLen(text('1234')))).toBe('0431323334');
    expect(toHex(prependLen(new Uint8Array(127))).slice(0, 2)).toBe('7f');
    expect(toHex(prependLen(new Uint8Array(128))).slice(0, 4)).toBe('8001');
    expect(toHex(prependLen(new Uint8Array(300))).slice(0, 4)).toBe('ac02');
    expect(toHex(prefixFreeCat(text('1234'), text('5'), new Uint8Array(0), text('678')))).toBe(
      '04313233340135000336373' + '8',
    );
  });

  it('builds the generator string, its hash and the generator', () => {
    expect(toHex(generatorString(PRS, CI, SID))).toBe(GEN_STR);
    expect(toHex(sha512(generatorString(PRS, CI, SID)))).toBe(GEN_HASH);
    // The draft's current text lists 9c57…d14c as the encoded generator, which is not what RFC 9496's element
    // derivation (pinned below on the RFC's own vectors) gives for the hash above; the draft's earlier revision
    // and the Rust crate built from it list 5e25…e15a, which it does give. The steps after the generator are
    // checked from the draft's listed generator, so every later output is still the draft's.
    expect(toHex(calculateGenerator(PRS, CI, SID).toBytes())).toBe(G_RFC9496);
  });

  it("maps 64 uniform bytes to an element as RFC 9496's test vectors do", () => {
    expect(toHex(elementFromUniform(hex(RFC9496_IN)).toBytes())).toBe(RFC9496_OUT);
  });

  it('computes both messages, K and the initiator/responder ISK', () => {
    const g = ristretto255.Point.fromBytes(hex(G));
    const ya = scalarMult(YA, g);
    const yb = scalarMult(YB, g);
    expect(toHex(ya)).toBe(SHARE_A);
    expect(toHex(yb)).toBe(SHARE_B);
    expect(toHex(cpaceMessage(ya, ADA))).toBe(MSG_A);
    expect(toHex(cpaceMessage(yb, ADB))).toBe(MSG_B);
    const ka = scalarMultVfy(YA, yb);
    const kb = scalarMultVfy(YB, ya);
    expect(ka && toHex(ka)).toBe(K);
    expect(kb && toHex(kb)).toBe(K);
    expect(toHex(intermediateSessionKey(SID, hex(K), hex(MSG_A), hex(MSG_B)))).toBe(ISK_IR);
  });

  it('multiplies a valid encoded point and refuses an invalid one or the identity', () => {
    const s = scalarFromBytes(
      hex('7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05'),
    );
    const x = hex('021ca069484e890c9e494d8ed6bb0f66cbd9a8f0ef67168f36c51e0efeb8f347');
    const r = scalarMultVfy(s, x);
    expect(r && toHex(r)).toBe('62aaa018755dc881902097c2a993c0b7c0a4fe33bce2c0182b46a44c40b95119');
    const invalid = hex('011ca069484e890c9e494d8ed6bb0f66cbd9a8f0ef67168f36c51e0efeb8f347');
    expect(scalarMultVfy(s, invalid)).toBeNull();
    expect(scalarMultVfy(s, new Uint8Array(32))).toBeNull();
    expect(scalarMultVfy(s, x.subarray(0, 31))).toBeNull();
    expect(scalarMultVfy(s, new Uint8Array(33))).toBeNull();
    expect(scalarMultVfy(s, new Uint8Array(32).fill(0xff))).toBeNull();
  });
});

describe('CPace between two parties', () => {
  const inputs = {
    prs: text('7-orbit-lantern'),
    ci: text('test'),
    sid: new Uint8Array(36).fill(7),
  };

  it('agrees on the ISK with the same code and not with another', () => {
    const a = cpaceShare(inputs);
    const b = cpaceShare(inputs);
    const ia = cpaceIsk(inputs, a.scalar, a.share, b.share, true);
    const ib = cpaceIsk(inputs, b.scalar, a.share, b.share, false);
    expect(ia).not.toBeNull();
    expect(ia && toHex(ia)).toBe(ib && toHex(ib));
    const wrong = { ...inputs, prs: text('7-orbit-lanterm') };
    const c = cpaceShare(wrong);
    const ic = cpaceIsk(wrong, c.scalar, a.share, c.share, false);
    const ia2 = cpaceIsk(inputs, a.scalar, a.share, c.share, true);
    expect(ic && toHex(ic)).not.toBe(ia2 && toHex(ia2));
  });

  it('aborts (null) on an identity or malformed share from the peer', () => {
    const a = cpaceShare(inputs);
    expect(cpaceIsk(inputs, a.scalar, a.share, new Uint8Array(32), true)).toBeNull();
    expect(cpaceIsk(inputs, a.scalar, a.share, new Uint8Array(32).fill(0xff), true)).toBeNull();
  });

  it('samples scalars below 2^252 and never zero', () => {
    let calls = 0;
    const zeroThenOnes = (n: number): Uint8Array =>
      calls++ === 0 ? new Uint8Array(n) : new Uint8Array(n).fill(0xff);
    const y = sampleScalar(zeroThenOnes);
    expect(calls).toBe(2);
    expect(y).toBe((1n << 252n) - 1n);
  });
});
