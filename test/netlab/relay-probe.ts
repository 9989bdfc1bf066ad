// The probe's TURN round trip (RFC 8656) through a coturn relay, on a bound socket: Allocate (challenged, then with time-limited credentials), CreatePermission for the peer, then Send indications until a Data indication brings the peer's answer. Each step bounded; knows nothing of namespaces.
import type { RemoteInfo, Socket } from 'node:dgram';
import type { MappedAddress, StunMessage } from './stun';
import {
  StunAttr,
  StunType,
  newTransaction,
  readErrorCode,
  readStun,
  readXorAddress,
  timeLimitedCredentials,
  writeStun,
  writeXorAddress,
} from './stun';

export interface RelayPlan {
  readonly turn: MappedAddress;
  /** coturn's `--static-auth-secret`. */
  readonly secret: string;
  readonly peer: MappedAddress;
  /** What to send the peer (a `serve` probe answers an ask with the address it saw: the relayed one). */
  readonly payload: Buffer;
  /** Sends per step, `interval` ms apart. */
  readonly tries: number;
  readonly interval: number;
}

export type RelayResult =
  | {
      readonly ok: true;
      readonly relayed: MappedAddress;
      readonly mapped: MappedAddress | undefined;
      readonly answer: Buffer;
    }
  | { readonly ok: false; readonly step: string; readonly detail: string };

const UDP_TRANSPORT = Buffer.from([17, 0, 0, 0]); // REQUESTED-TRANSPORT: protocol number, then 3 reserved bytes
/** Credentials minted for this long (seconds): a probe lives far less. */
const CREDENTIAL_S = 600;

const fail = (step: string, detail: string): RelayResult => ({ ok: false, step, detail });
const show = (a: MappedAddress | undefined): string =>
  a === undefined ? '(none)' : `${a.address}:${a.port}`;

export async function relayRoundTrip(sock: Socket, plan: RelayPlan): Promise<RelayResult> {
  const { turn, peer } = plan;
  const waiting = new Map<string, (m: StunMessage) => void>();
  let onData: ((data: Buffer) => void) | undefined;
  const listener = (msg: Buffer, from: RemoteInfo): void => {
    if (from.address !== turn.address || from.port !== turn.port) return;
    const m = readStun(msg);
    if (m === undefined) return;
    if (m.type === StunType.dataIndication) {
      const source = readXorAddress(m.attrs.get(StunAttr.xorPeerAddress));
      const data = m.attrs.get(StunAttr.data);
      if (source?.address === peer.address && source.port === peer.port && data !== undefined)
        onData?.(data);
      return;
    }
    waiting.get(m.transaction.toString('hex'))?.(m);
  };
  sock.on('message', listener);

  /** Sends `message` until something answers (or the tries run out); the same transaction each time. */
  const repeat = <T>(
    message: Buffer,
    arm: (resolve: (v: T) => void) => void,
  ): Promise<T | undefined> =>
    new Promise((resolve) => {
      let left = plan.tries;
      let timer: NodeJS.Timeout | undefined;
      const finish = (v: T | undefined): void => {
        clearTimeout(timer);
        resolve(v);
      };
      arm(finish);
      const send = (): void => {
        if (left-- === 0) {
          finish(undefined);
          return;
        }
        sock.send(message, turn.port, turn.address);
        timer = setTimeout(send, plan.interval);
      };
      send();
    });
  const transact = async (
    type: number,
    attrs: readonly (readonly [number, Buffer])[],
    key?: Buffer,
  ): Promise<StunMessage | undefined> => {
    const tx = newTransaction();
    const id = tx.toString('hex');
    const answer = await repeat<StunMessage>(writeStun(type, tx, attrs, key), (r) =>
      waiting.set(id, r),
    );
    waiting.delete(id);
    return answer;
  };

  try {
    const request = [StunAttr.requestedTransport, UDP_TRANSPORT] as const;
    const challenge = await transact(StunType.allocateRequest, [request]);
    const realm = challenge?.attrs.get(StunAttr.realm);
    const nonce = challenge?.attrs.get(StunAttr.nonce);
    if (challenge === undefined) return fail('allocate', 'no answer');
    if (
      readErrorCode(challenge.attrs.get(StunAttr.errorCode)) !== 401 ||
      realm === undefined ||
      nonce === undefined
    ) {
      return fail('allocate', `expected a 401 challenge, got type ${challenge.type.toString(16)}`);
    }
    const expiry = Math.floor(Date.now() / 1000) + CREDENTIAL_S;
    const { username, key } = timeLimitedCredentials(
      plan.secret,
      'netlab',
      realm.toString(),
      expiry,
    );
    const auth = [
      [StunAttr.username, Buffer.from(username)],
      [StunAttr.realm, realm],
      [StunAttr.nonce, nonce],
    ] as const;

    const allocated = await transact(StunType.allocateRequest, [request, ...auth], key);
    if (allocated?.type !== StunType.allocateSuccess) {
      const code = readErrorCode(allocated?.attrs.get(StunAttr.errorCode));
      return fail('allocate', allocated === undefined ? 'no answer' : `error ${String(code)}`);
    }
    const relayed = readXorAddress(allocated.attrs.get(StunAttr.xorRelayedAddress));
    const mapped = readXorAddress(allocated.attrs.get(StunAttr.xorMappedAddress));
    if (relayed === undefined) return fail('allocate', 'no relayed address');

    const peerAttr = [StunAttr.xorPeerAddress, writeXorAddress(peer)] as const;
    const permitted = await transact(StunType.createPermissionRequest, [peerAttr, ...auth], key);
    if (permitted?.type !== StunType.createPermissionSuccess) {
      const code = readErrorCode(permitted?.attrs.get(StunAttr.errorCode));
      return fail('permission', permitted === undefined ? 'no answer' : `error ${String(code)}`);
    }

    const send = writeStun(StunType.sendIndication, newTransaction(), [
      peerAttr,
      [StunAttr.data, plan.payload],
    ]);
    const answer = await repeat<Buffer>(send, (r) => (onData = r));
    if (answer === undefined)
      return fail('data', `no Data indication from ${show(peer)} via ${show(relayed)}`);
    return { ok: true, relayed, mapped, answer };
  } finally {
    sock.off('message', listener);
  }
}
