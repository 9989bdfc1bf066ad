// Unit tests of the WebSocket bridge against a fake socket and a manual timer.
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import {
  apiProtocols,
  apiUrl,
  createWsBridge,
  LOST_REASON,
  type SocketLike,
  takeToken,
} from './ws-bridge';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  receive(msg: unknown): void {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) });
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const bridge = createWsBridge({
    url: 'ws://x/api',
    protocols: ['ghostboard.v1', 'token.t'],
    openSocket: (url, protocols) => {
      expect(protocols).toEqual(['ghostboard.v1', 'token.t']);
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    initialBackoffMs: 100,
    maxBackoffMs: 400,
  });
  const last = (): FakeSocket => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { bridge, sockets, timers, last };
}

describe('apiUrl and the launch token', () => {
  const loc = { protocol: 'http:', host: '127.0.0.1:5173' };
  it('puts no token in the socket URL', () => {
    expect(apiUrl(loc)).toBe('ws://127.0.0.1:5173/api');
    expect(apiUrl({ ...loc, protocol: 'https:' })).toBe('wss://127.0.0.1:5173/api');
  });

  function sources(hash: string, stored?: string) {
    const store = new Map<string, string>(
      stored === undefined ? [] : [['ghostboard.token', stored]],
    );
    const bar: string[] = [];
    return {
      bar,
      store,
      src: {
        location: { hash, pathname: '/', search: '?fake=0' },
        history: {
          state: null,
          replaceState: (_s: unknown, _t: string, url?: string | URL | null) => {
            bar.push(String(url));
          },
        },
        storage: {
          getItem: (k: string) => store.get(k) ?? null,
          setItem: (k: string, v: string) => {
            store.set(k, v);
          },
        },
      },
    };
  }

  it('takes the token from the fragment, removes it from the address bar and keeps it for a reload', () => {
    const token = 'Ab_-'.repeat(10) + 'xyz';
    const s = sources(`#token=${token}`);
    expect(takeToken(s.src)).toBe(token);
    expect(s.bar).toEqual(['/?fake=0']);
    expect(s.store.get('ghostboard.token')).toBe(token);
    // The reload: no fragment any more, the tab's storage has it.
    const reload = sources('', token);
    expect(takeToken(reload.src)).toBe(token);
    expect(reload.bar).toEqual([]);
  });

  it('offers the token as a subprotocol beside ours, and nothing malformed', () => {
    expect(apiProtocols('abc_-DEF')).toEqual(['ghostboard.v1', 'token.abc_-DEF']);
    expect(apiProtocols('')).toEqual(['ghostboard.v1']);
    expect(apiProtocols('a b,c')).toEqual(['ghostboard.v1']);
    expect(takeToken(sources('#token=a%20b').src)).toBe('');
  });
});

describe('createWsBridge', () => {
  it('sends commands with ids and resolves each with its reply', async () => {
    const { bridge, last } = setup();
    last().open();
    const a = bridge.invoke({ cmd: 'sync' });
    const b = bridge.invoke({ cmd: 'leave' });
    expect(last().sent.map((s) => JSON.parse(s) as unknown)).toEqual([
      { id: 1, command: { cmd: 'sync' } },
      { id: 2, command: { cmd: 'leave' } },
    ]);
    last().receive({ id: 2, reply: { ok: false, reason: 'no' } });
    last().receive({ id: 1, reply: { ok: true, id: 5 } });
    expect(await a).toEqual({ ok: true, id: 5 });
    expect(await b).toEqual({ ok: false, reason: 'no' });
  });

  it('delivers events to subscribers and ignores garbage', () => {
    const { bridge, last } = setup();
    last().open();
    const got: ApiEvent[] = [];
    const off = bridge.subscribe((e) => got.push(e));
    last().receive('not json {');
    last().receive({ nonsense: true });
    last().receive({ event: { type: 'notice', level: 'info', text: 'x' } });
    off();
    last().receive({ event: { type: 'notice', level: 'info', text: 'y' } });
    expect(got).toEqual([{ type: 'notice', level: 'info', text: 'x' }]);
  });

  it('refuses commands while not connected', async () => {
    const { bridge } = setup();
    expect(await bridge.invoke({ cmd: 'sync' })).toEqual({ ok: false, reason: LOST_REASON });
  });
});

describe('createWsBridge reconnect', () => {
  it('fails pending commands, reports the loss and reconnects with growing backoff', async () => {
    const { bridge, sockets, timers, last } = setup();
    const states: string[] = [];
    bridge.onBridgeState((s) => states.push(s));
    last().open();
    const p = bridge.invoke({ cmd: 'sync' });
    last().drop();
    expect(await p).toEqual({ ok: false, reason: LOST_REASON });
    expect(bridge.bridgeState()).toBe('lost');
    for (let i = 0; i < 4; i++) {
      timers.shift()?.fn();
      last().drop();
    }
    expect(sockets).toHaveLength(5);
    expect(timers.map((t) => t.ms)).toEqual([400]);
    timers.shift()?.fn();
    last().open();
    expect(states).toEqual(['open', 'lost', 'open']);
    last().drop();
    expect(timers.map((t) => t.ms)).toEqual([100]);
  });

  it('stays "connecting" (not "lost") until it has been open once', () => {
    const { bridge, timers, last } = setup();
    last().drop();
    expect(bridge.bridgeState()).toBe('connecting');
    timers.shift()?.fn();
    last().open();
    expect(bridge.bridgeState()).toBe('open');
  });

  it('stops reconnecting once closed', () => {
    const { bridge, timers } = setup();
    bridge.close();
    expect(timers).toHaveLength(0);
  });
});
