// Announces a hosted session on the LAN as DNS-SD service _ghostboard._udp through bonjour-service (its
// responder answers queries and announces; stop() sends goodbyes). Knows nothing of sessions or the app; the
// TXT record (txt.ts) never carries the join code.
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import { PROTOCOL_VERSION } from '../../shared/version';
import { boundName, encodeTxt, SERVICE_NAME } from './txt';

export interface AdvertiseOptions {
  /** Host's display name or board name (bounded before it is sent). */
  readonly name: string;
  /** The session's UDP port, 1..65535. */
  readonly port: number;
  readonly users?: number;
  /** Defaults to shared/version.ts. */
  readonly version?: number;
  /** Told of socket trouble (port 5353 refused, a failed send); never thrown. */
  readonly onError?: (message: string) => void;
}

export interface AdvertiseHandle {
  /** The random id in the TXT record (browsers key the list by it with the instance name). */
  readonly id: string;
  /** Re-announces with a new participant count (a goodbye-free replacement within the 1 s grace). */
  update(u: { readonly users: number }): void;
  /** Sends goodbyes (TTL 0) and closes the socket; resolves within about a second whatever happens. */
  stop(): Promise<void>;
}

const STOP_BOUND_MS = 1000;
/** DNS labels are at most 63 bytes; the instance name is the bounded display name plus the id. */
const INSTANCE_NAME_BYTES = 40;

export function newSessionId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The DNS-SD instance name: readable in other browsers (`avahi-browse`, `dns-sd -B`) and unique by its random
 * suffix, which is why the service is published without probing (probing only settles duplicates, and a
 * hostile answer to every probe would keep a session off the list).
 */
export function instanceName(name: string, id: string): string {
  let base = '';
  for (const ch of boundName(name).replace(/[.\\]/g, '-')) {
    if (Buffer.byteLength(base + ch) > INSTANCE_NAME_BYTES) break;
    base += ch;
  }
  return `${base.trim()} ${id.slice(0, 8)}`;
}

export function advertise(o: AdvertiseOptions): AdvertiseHandle {
  if (!Number.isInteger(o.port) || o.port < 1 || o.port > 65535)
    throw new Error(`advertise needs a port in 1..65535, got ${o.port}`);
  const id = newSessionId();
  const report = (e: unknown): void => {
    try {
      o.onError?.(e instanceof Error ? e.message : String(e));
    } catch {
      // a failing listener must not reach the socket's callback
    }
  };
  // bonjour-service's default error callback throws from a socket callback: ours reports instead.
  const bonjour = new Bonjour({}, report);
  guardSocket(bonjour, report);
  const host = `${hostname().split('.')[0] ?? 'ghostboard'}.local`;
  const version = o.version ?? PROTOCOL_VERSION;
  let users = o.users ?? null;
  const publish = (): Service =>
    bonjour.publish({
      name: instanceName(o.name, id),
      type: SERVICE_NAME,
      protocol: 'udp',
      port: o.port,
      host,
      probe: false,
      txt: encodeTxt({ name: o.name, version, id, users }),
    });
  let service: Service | undefined = publish();
  let stopping: Promise<void> | undefined;

  return {
    id,
    update: (u) => {
      if (service === undefined || u.users === users) return;
      users = u.users;
      // bonjour-service cannot change a published TXT record: goodbye and re-announce at once. Browsers
      // keep a goodbye's entry for a second (RFC 6762 §10.1), so the entry is replaced, not removed.
      stopService(service);
      service = publish();
    },
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        const s = service;
        service = undefined;
        let done = false;
        const finish = (): void => {
          if (done) return;
          done = true;
          clearTimeout(bound);
          try {
            bonjour.destroy(() => resolve());
          } catch {
            resolve();
          }
        };
        const bound = setTimeout(finish, STOP_BOUND_MS);
        try {
          if (s === undefined) finish();
          else stopService(s, finish);
        } catch (e) {
          report(e);
          finish();
        }
      });
      return stopping;
    },
  };
}

/** bonjour-service types `stop` as a bare CallableFunction: (callback?) => void, sending the goodbyes. */
function stopService(s: Service, callback?: () => void): void {
  (s.stop as (callback?: () => void) => void)(callback);
}

/**
 * multicast-dns re-emits EADDRINUSE / EACCES as 'error', and bonjour-service attaches no listener to it, so one
 * would throw from the socket's callback. bonjour-service keeps the instance as `server.mdns` (1.4.4, pinned).
 */
function guardSocket(bonjour: Bonjour, report: (e: unknown) => void): void {
  const mdns = (bonjour as unknown as { server?: { mdns?: EventEmitter } }).server?.mdns;
  if (mdns === undefined) throw new Error('bonjour-service changed: no server.mdns to guard');
  mdns.on('error', report);
  mdns.on('warning', () => {
    // interfaces that cannot join the group, undecodable packets: routine on a real LAN
  });
}
