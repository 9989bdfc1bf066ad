// Baseline (b)'s user: a Yjs document over y-websocket's WebsocketProvider; the cursor lives in the awareness
// state, chat in a Y.Array, elements in a Y.Map of Y.Maps (a drag sets x and y). Speaks the compare contract;
// knows nothing of the router or of how it is measured.
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import type { Command } from './contract';
import { emit, exitOnSignal, readCommands } from './contract';

const [url = '', name = 'user'] = process.argv.slice(2);
const doc = new Y.Doc();
type Polyfill = NonNullable<
  ConstructorParameters<typeof WebsocketProvider>[3]
>['WebSocketPolyfill'];
const provider = new WebsocketProvider(url, 'bench', doc, {
  WebSocketPolyfill: WebSocket as unknown as Polyfill,
  disableBc: true,
});
const awareness = provider.awareness;
awareness.setLocalState({ user: { name, color: '#30bced' }, cursor: null });
const elements = doc.getMap<Y.Map<unknown>>('elements');
const chat = doc.getArray<{ from: string; text: string }>('chat');

interface Cursor {
  x: number;
  y: number;
}
interface Peer {
  user?: { name?: string };
  cursor?: Cursor | null;
}

provider.on('sync', (synced: boolean) => {
  if (synced) emit({ ev: 'ready', peer: doc.clientID });
});

awareness.on('change', (c: { added: number[]; updated: number[] }) => {
  for (const id of [...c.added, ...c.updated]) {
    if (id === doc.clientID) continue;
    const s = awareness.getStates().get(id) as Peer | undefined;
    if (s?.cursor) emit({ ev: 'pointer', peer: s.user?.name, x: s.cursor.x, y: s.cursor.y });
  }
});

elements.observeDeep((events) => {
  const touched = new Set<string>();
  for (const e of events) {
    if (e.target === elements) for (const k of e.changes.keys.keys()) touched.add(k);
    else if (e.target instanceof Y.Map) touched.add(String(e.path[0]));
  }
  for (const id of touched) {
    const el = elements.get(id);
    if (el) emit({ ev: 'object', id: Number(id), x: el.get('x'), y: el.get('y') });
  }
});

chat.observe((e) => {
  for (const d of e.changes.delta) {
    for (const m of (d.insert ?? []) as { from: string; text: string }[]) {
      emit({ ev: 'chat', peer: m.from, text: m.text });
    }
  }
});

function handle(c: Command): void {
  switch (c.cmd) {
    case 'pointer':
      awareness.setLocalStateField('cursor', { x: c.x, y: c.y });
      return;
    case 'chat':
      chat.push([{ from: name, text: c.text }]);
      return;
    case 'create':
      doc.transact(() => {
        const el = new Y.Map<unknown>();
        const fields = { type: 'rectangle', x: c.x, y: c.y, width: c.w, height: c.h, angle: 0 };
        for (const [k, v] of Object.entries(fields)) el.set(k, v);
        el.set('strokeColor', '#1e1e1e');
        el.set('backgroundColor', 'transparent');
        el.set('strokeWidth', 2);
        elements.set(String(c.id), el);
      });
      return;
    case 'grab':
      return; // no locks in a CRDT
    case 'drag':
    case 'drop': {
      const el = elements.get(String(c.id));
      if (!el) return;
      doc.transact(() => {
        el.set('x', c.x);
        el.set('y', c.y);
      });
      return;
    }
    case 'quit':
      return;
  }
}

const close = (): void => {
  provider.destroy();
  doc.destroy();
};
readCommands(handle, () => {
  close();
  setTimeout(() => process.exit(0), 100);
});
exitOnSignal(close);
