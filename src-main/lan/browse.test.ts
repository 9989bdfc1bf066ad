// The browser's glue on a fake mDNS socket: it asks for _ghostboard._udp, lists what answers, and nothing a
// hostile network or a failing listener does escapes from the socket's callbacks.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { browse, type BrowseHandle, type MdnsSocket } from './browse';
import type { LanSession } from './table';
import { encodeTxt, SERVICE_TYPE } from './txt';

class FakeSocket extends EventEmitter implements MdnsSocket {
  readonly queries: string[] = [];
  destroyed = false;
  query(questions: { name: string; type: 'PTR' }[], callback: (err: Error | null) => void): void {
    this.queries.push(...questions.map((q) => `${q.name} ${q.type}`));
    callback(null);
  }
  destroy(callback: () => void): void {
    this.destroyed = true;
    callback();
  }
}

const KEY = `ana 00112233.${SERVICE_TYPE}`;
function answer(ttl = 120): unknown {
  const txt = encodeTxt({ name: 'Ana', version: 4, id: '0011223344556677', users: 1 });
  return {
    answers: [{ name: SERVICE_TYPE, type: 'PTR', ttl, data: KEY }],
    additionals: [
      { name: KEY, type: 'SRV', ttl, data: { port: 7350, target: 'ana.local' } },
      {
        name: KEY,
        type: 'TXT',
        ttl,
        data: Object.entries(txt).map(([k, v]) => Buffer.from(`${k}=${v}`)),
      },
    ],
  };
}

const handles: BrowseHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop()));
});

function start(
  onChange: (l: LanSession[]) => void = () => undefined,
  onError?: (m: string) => void,
) {
  const socket = new FakeSocket();
  let t = 0;
  const h = browse(onChange, {
    socket: () => socket,
    now: () => t,
    ...(onError === undefined ? {} : { onError }),
  });
  handles.push(h);
  return { socket, h, advance: (ms: number) => (t += ms) };
}

describe('LAN browser on a fake socket', () => {
  it('asks for the service type at once and lists an answer', () => {
    const lists: LanSession[][] = [];
    const { socket, h } = start((l) => lists.push(l));
    expect(socket.queries).toEqual([`${SERVICE_TYPE} PTR`]);
    socket.emit('response', answer(), { address: '192.168.77.10', port: 5353 });
    socket.emit('response', answer(), { address: '192.168.77.10', port: 5353 }); // a refresh: no change
    expect(lists).toHaveLength(1);
    expect(h.list().map((s) => [s.name, s.addresses[0], s.port])).toEqual([
      ['Ana', '192.168.77.10', 7350],
    ]);
  });

  it('never lets hostile packets or a failing listener out of the socket callback', () => {
    const { socket, h } = start(() => {
      throw new Error('listener bug');
    });
    for (const p of [null, 7, 'x', {}, { answers: 5 }, { answers: [null] }, { additionals: {} }])
      expect(() => socket.emit('response', p, undefined)).not.toThrow();
    expect(() => socket.emit('response', answer(), { address: 5 })).not.toThrow();
    expect(h.counters.handlerErrors).toBe(1);
    expect(h.list()).toHaveLength(1);
  });

  it('reports a dead socket once, and routine warnings not at all', () => {
    const errors: string[] = [];
    const { socket, h } = start(undefined, (m) => errors.push(m));
    socket.emit('warning', new Error('addMembership EINVAL'));
    socket.emit('error', new Error('bind EADDRINUSE'));
    expect(errors).toEqual(['bind EADDRINUSE']);
    expect(h.counters.socketErrors).toBe(2);
  });

  it('stops: closes the socket and tells nothing more', async () => {
    const lists: LanSession[][] = [];
    const { socket, h } = start((l) => lists.push(l));
    await h.stop();
    expect(socket.destroyed).toBe(true);
    socket.emit('response', answer(), { address: '192.168.77.10' });
    expect(lists).toEqual([]);
  });
});
