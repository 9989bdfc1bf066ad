// Unit tests of the controller's wiring: events into the store and live pointers, creates with drafts, errors.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiEvent, ApiReply, GhostboardBridge } from '../../shared/api';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { Store } from '../store/store';
import { Controller } from './controller';

function fakeBridge(reply: (c: ApiCommand) => ApiReply | Error) {
  const listeners = new Set<(e: ApiEvent) => void>();
  const sent: ApiCommand[] = [];
  const bridge: GhostboardBridge = {
    invoke: (c) => {
      sent.push(c);
      const r = reply(c);
      return r instanceof Error ? Promise.reject(r) : Promise.resolve(r);
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  return { bridge, sent, emit };
}

const RECT: NewObject = newRect({ w: 10, h: 10, stroke: 0 });

describe('Controller', () => {
  it('asks for the state on attach and feeds events to the store', () => {
    const { bridge, sent, emit } = fakeBridge(() => ({ ok: true }));
    const store = new Store();
    new Controller(bridge, store).attach();
    expect(sent).toEqual([{ cmd: 'sync' }]);
    emit({ type: 'notice', level: 'warn', text: 'hello' });
    expect(store.getState().toasts.map((t) => t.text)).toEqual(['hello']);
  });

  it('never shows its own pointer as a remote one', () => {
    const { bridge, emit } = fakeBridge(() => ({ ok: true }));
    const c = new Controller(bridge, new Store());
    c.attach();
    emit({
      type: 'status',
      status: { phase: 'hosting', name: 'a', addresses: [], port: 1, code: 'abcd', you: 1 },
    });
    const p = { x: 1, y: 2, tool: 'select', visible: true, drag: null } as const;
    emit({
      type: 'pointers',
      pointers: [
        { ...p, peer: 1 },
        { ...p, peer: 2 },
      ],
      gone: [],
    });
    expect(c.live.frame(performance.now()).pointers.map((q) => q.peer)).toEqual([2]);
  });

  it('shows a draft until the reply, and drops it with a toast when refused', async () => {
    const { bridge } = fakeBridge((cmd) =>
      cmd.cmd === 'create' ? { ok: false, reason: 'viewer' } : { ok: true },
    );
    const store = new Store();
    const c = new Controller(bridge, store);
    const pending = c.create(RECT);
    expect(store.getState().drafts).toHaveLength(1);
    expect(await pending).toBeNull();
    expect(store.getState().drafts).toHaveLength(0);
    expect(store.getState().toasts[0]?.text).toContain('viewer');
  });

  it('turns a bridge that throws into a refused reply', async () => {
    const { bridge } = fakeBridge(() => new Error('ipc down'));
    const c = new Controller(bridge, new Store());
    expect(await c.invoke({ cmd: 'sync' })).toEqual({ ok: false, reason: 'ipc down' });
  });
});
