// What a handshake gives someone who does not know the code: one guess per attempt, tested against the live host
// or client, and nothing to test further guesses against offline. Endpoints driven by hand; no network or clock.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { createHmac } from 'node:crypto';
import { cpaceIsk, cpaceShare, scalarMultVfy } from './cpace';
import { deriveSessionKeys, joinCodeSecret } from './crypto';
import type { Transmit } from './endpoint';
import { Endpoint } from './endpoint';
import type { HandshakePacket } from './handshake';
import {
  cpaceChannelId,
  cpaceSessionId,
  decodeHandshake,
  encodeHandshake,
  HANDSHAKE_MARKER,
  isHandshakeDecodeError,
} from './handshake';

const HOST: PeerAddress = { address: '127.0.0.1', port: 4000 };
const ATTACKER: PeerAddress = { address: '127.0.0.66', port: 4666 };
const VERSION = 1;
const CODE = '113-walrus-lantern';
const DICTIONARY = [
  '1-acorn-acorn',
  '113-walrus-lanterm',
  CODE,
  '113-lantern-walrus',
  '7-orbit-lantern',
];

function endpoint(role: 'host' | 'client', code: string): Endpoint<number> {
  return new Endpoint<number>(
    role,
    { joinCode: code, protocolVersion: VERSION },
    () => ({ onPayload: () => undefined, onNotify: () => undefined }),
    0,
  );
}

function drain(e: Endpoint<number>): Transmit[] {
  const out: Transmit[] = [];
  for (let t = e.pollTransmit(); t !== undefined; t = e.pollTransmit()) out.push(t);
  return out;
}

function handshakeReply(ts: Transmit[], type: HandshakePacket['type']): HandshakePacket {
  for (const t of ts) {
    const p = decodeHandshake(t.bytes);
    if (!isHandshakeDecodeError(p) && p.type === type) return p;
  }
  throw new Error(`no ${type} among ${ts.length} datagrams`);
}

interface Attempt {
  /** For each dictionary word: does the attacker's offline check, run with what it knows, say "this is the code"? */
  readonly verdicts: readonly boolean[];
  /** The same check against a confirmation keyed by the code over an unauthenticated exchange (protocol 3's design). */
  readonly verdictsWithoutPake: readonly boolean[];
}

/**
 * An attacker posing as a client runs CPace with its guess against the real host, then checks every word of its
 * dictionary offline with everything it saw and chose. Its only secret is its scalar, which is a discrete log of
 * its share for its guess's generator alone; the check it can compute is the same for every word.
 */
function guessAgainstHost(guess: string): Attempt {
  const host = endpoint('host', CODE);
  const nonce = new Uint8Array(16).fill(9);
  host.handleDatagram(
    0,
    ATTACKER,
    encodeHandshake({ type: 'hello', version: VERSION, clientNonce: nonce }),
  );
  const challenge = handshakeReply(drain(host), 'challenge');
  if (challenge.type !== 'challenge') throw new Error('unreachable');
  const inputsFor = (code: string) => ({
    prs: joinCodeSecret(code),
    ci: cpaceChannelId(VERSION),
    sid: cpaceSessionId(nonce, challenge.cookie),
  });
  const mine = cpaceShare(inputsFor(guess));
  host.handleDatagram(
    1,
    ATTACKER,
    encodeHandshake({
      type: 'response',
      version: VERSION,
      clientNonce: nonce,
      cookie: challenge.cookie,
      share: mine.share,
    }),
  );
  const accept = handshakeReply(drain(host), 'accept');
  if (accept.type !== 'accept') throw new Error('unreachable');
  const shared = scalarMultVfy(mine.scalar, accept.share);
  if (shared === null) throw new Error('the host share is not a valid element');
  const verdicts = DICTIONARY.map((candidate) => {
    const isk = cpaceIsk(inputsFor(candidate), mine.scalar, mine.share, accept.share, true);
    return isk !== null && Buffer.from(deriveSessionKeys(isk).hostConfirm).equals(accept.confirm);
  });
  // Had the host confirmed with a MAC keyed by the code over this same Diffie-Hellman value, the loop would
  // single out the code: the oracle this test is here to catch.
  const hostProofWithoutPake = createHmac('sha256', shared).update(CODE).digest();
  const verdictsWithoutPake = DICTIONARY.map((candidate) =>
    createHmac('sha256', shared).update(candidate).digest().equals(hostProofWithoutPake),
  );
  return { verdicts, verdictsWithoutPake };
}

describe('offline guessing', () => {
  it('an attacker posing as a client learns one bit, about the guess it committed to, and nothing per word', () => {
    const right = guessAgainstHost(CODE);
    expect(right.verdicts.every((v) => v)).toBe(true);
    for (const wrong of ['113-walrus-lanterm', '1-acorn-acorn']) {
      expect(guessAgainstHost(wrong).verdicts.some((v) => v)).toBe(false);
    }
    // The same offline loop against a code-keyed confirmation picks out the code, so the loop can find an oracle.
    expect(right.verdictsWithoutPake).toEqual(DICTIONARY.map((w) => w === CODE));
  });

  it('an attacker posing as the host gets only a random group element from the client, and nothing sealed', () => {
    const client = endpoint('client', CODE);
    client.connect(0, HOST);
    const hello = handshakeReply(drain(client), 'hello');
    if (hello.type !== 'hello') throw new Error('unreachable');
    // The fake host answers with a cookie of its choosing and, later, CPace run with its guess.
    const cookie = new Uint8Array(20).fill(1);
    client.handleDatagram(
      1,
      HOST,
      encodeHandshake({ type: 'challenge', clientNonce: hello.clientNonce, cookie }),
    );
    const response = handshakeReply(drain(client), 'response');
    if (response.type !== 'response') throw new Error('unreachable');
    const inputs = {
      prs: joinCodeSecret('7-orbit-lantern'),
      ci: cpaceChannelId(VERSION),
      sid: cpaceSessionId(hello.clientNonce, cookie),
    };
    const fake = cpaceShare(inputs);
    const isk = cpaceIsk(inputs, fake.scalar, response.share, fake.share, false);
    if (isk === null) throw new Error('the client share is not a valid element');
    client.handleDatagram(
      2,
      HOST,
      encodeHandshake({
        type: 'accept',
        clientNonce: hello.clientNonce,
        share: fake.share,
        confirm: deriveSessionKeys(isk).hostConfirm,
      }),
    );
    // Until it gives up, the client only repeats the same RESPONSE: no proof, no sealed packet, nothing keyed.
    const later: Uint8Array[] = [];
    for (let t = 2; t <= 12_000; t += 50) {
      client.handleTimeout(t);
      for (const x of drain(client)) later.push(x.bytes);
    }
    expect(later.length).toBeGreaterThan(0);
    for (const bytes of later) {
      expect(bytes[0]).toBeGreaterThanOrEqual(HANDSHAKE_MARKER);
      expect(Buffer.from(bytes).equals(Buffer.from(encodeHandshake(response)))).toBe(true);
    }
    const ev = client.pollEvent();
    expect(ev?.type === 'connect-failed' && ev.reason).toBe('wrong-code');
    // What the fake host holds (the client's share) fits every candidate code equally: ristretto255 has prime
    // order, so the share is g_c^y for some y under every candidate's generator g_c; there is no check to run.
    expect(response.share).toHaveLength(32);
  });
});
