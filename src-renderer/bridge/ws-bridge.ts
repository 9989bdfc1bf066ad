// The web host's bridge: `window.ghostboard` over the local WebSocket (JSON text frames), with reconnect and
// a bridge state for the "connection lost" banner. Knows the wire protocol only; nothing of React or the store.
//   client → server  {"id": number, "command": ApiCommand}
//   server → client  {"id": number, "reply": ApiReply}  |  {"event": ApiEvent}
import type { ApiCommand, ApiEvent, ApiReply, GhostboardBridge } from '../../shared/api';
import { WS_PATH } from '../../shared/api';
import { tokenFromHash, tokenProtocols } from '../../shared/web-auth';

export type BridgeState = 'connecting' | 'open' | 'lost';

/** What this module needs of a WebSocket (the browser's, or a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface WsBridgeOptions {
  readonly url: string;
  /** Offered on every (re)connect: the launch token rides here, never in the URL. */
  readonly protocols?: readonly string[];
  readonly openSocket?: (url: string, protocols: readonly string[]) => SocketLike;
  readonly setTimer?: (fn: () => void, ms: number) => void;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

export interface WsBridge extends GhostboardBridge {
  bridgeState(): BridgeState;
  /** Called on every change of the bridge state; returns the unsubscribe function. */
  onBridgeState(listener: (state: BridgeState) => void): () => void;
  close(): void;
}

const OPEN = 1;
export const LOST_REASON = 'The connection to the app was lost.';

/** `ws://<host>/api` from the page's location: no token in it (that goes as a subprotocol). */
export function apiUrl(loc: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}${WS_PATH}`;
}

const TOKEN_KEY = 'ghostboard.token';

/** What takeToken touches: the page's location, history and session storage (fakes in tests). */
export interface TokenSources {
  readonly location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  readonly history: Pick<History, 'replaceState' | 'state'>;
  readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
}

/**
 * The launch token: taken from the fragment (`#token=…`) and at once removed from the address bar, so it is not
 * left in history, bookmarks or a shared screen. It is kept in this tab's session storage, so a reload still
 * connects (the storage ends with the tab; a script that could read it could already use the open socket).
 */
export function takeToken(src: TokenSources): string {
  const fromHash = tokenFromHash(src.location.hash);
  if (fromHash === undefined) {
    try {
      return src.storage?.getItem(TOKEN_KEY) ?? '';
    } catch {
      return ''; // storage refused (a privacy mode): the fragment was the only way, and it is gone
    }
  }
  src.history.replaceState(src.history.state, '', src.location.pathname + src.location.search);
  try {
    src.storage?.setItem(TOKEN_KEY, fromHash);
  } catch {
    // Without storage a reload needs the launch URL again; the session itself is unaffected.
  }
  return fromHash;
}

/** The subprotocols to offer for a token. */
export function apiProtocols(token: string): string[] {
  return tokenProtocols(token);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

class WsBridgeImpl implements WsBridge {
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private readonly stateListeners = new Set<(s: BridgeState) => void>();
  private readonly pending = new Map<number, (r: ApiReply) => void>();
  private state: BridgeState = 'connecting';
  private socket: SocketLike | null = null;
  private nextId = 1;
  private backoff: number;
  private closed = false;
  /** Until the first open, a failure is "still connecting", not "lost". */
  private everOpen = false;

  constructor(private readonly opts: WsBridgeOptions) {
    this.backoff = opts.initialBackoffMs ?? 250;
    this.connect();
  }

  invoke(command: ApiCommand): Promise<ApiReply> {
    const ws = this.socket;
    if (ws?.readyState !== OPEN) return Promise.resolve({ ok: false, reason: LOST_REASON });
    const id = this.nextId++;
    return new Promise<ApiReply>((resolve) => {
      this.pending.set(id, resolve);
      ws.send(JSON.stringify({ id, command }));
    });
  }

  subscribe(listener: (e: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  bridgeState(): BridgeState {
    return this.state;
  }

  onBridgeState(listener: (s: BridgeState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private setState(s: BridgeState): void {
    if (s === this.state) return;
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  private connect(): void {
    const open =
      this.opts.openSocket ??
      ((url: string, protocols: readonly string[]) =>
        new WebSocket(url, [...protocols]) as unknown as SocketLike);
    const ws = open(this.opts.url, this.opts.protocols ?? []);
    this.socket = ws;
    ws.onopen = () => {
      this.backoff = this.opts.initialBackoffMs ?? 250;
      this.everOpen = true;
      this.setState('open');
    };
    ws.onmessage = (ev) => {
      this.onMessage(ev.data);
    };
    ws.onerror = () => {
      /* onclose follows and handles it */
    };
    ws.onclose = () => {
      if (this.socket === ws) this.onClose();
    };
  }

  private onClose(): void {
    this.socket = null;
    for (const resolve of this.pending.values()) resolve({ ok: false, reason: LOST_REASON });
    this.pending.clear();
    if (this.closed) return;
    this.setState(this.everOpen ? 'lost' : 'connecting');
    const setTimer =
      this.opts.setTimer ?? ((fn: () => void, ms: number) => void setTimeout(fn, ms));
    setTimer(() => {
      this.connect();
    }, this.backoff);
    this.backoff = Math.min(this.opts.maxBackoffMs ?? 5000, this.backoff * 2);
  }

  private onMessage(data: unknown): void {
    let msg: unknown;
    try {
      msg = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      return; // Not ours to crash on; the server speaks JSON only.
    }
    if (!isRecord(msg)) return;
    if ('event' in msg && isRecord(msg.event)) {
      const event = msg.event as unknown as ApiEvent;
      for (const l of this.listeners) l(event);
    } else if (typeof msg.id === 'number' && isRecord(msg.reply)) {
      const resolve = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      resolve?.(msg.reply as unknown as ApiReply);
    }
  }
}

/** Connects at once and keeps reconnecting (250 ms doubling to 5 s) until closed. */
export function createWsBridge(opts: WsBridgeOptions): WsBridge {
  return new WsBridgeImpl(opts);
}
