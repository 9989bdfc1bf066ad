// Dev only (?fake=1): a simulated core — hosting or joining, a board, two remote participants, chat and stats —
// for visual checks without the app. With &objects=N (and &seed=S, &pointers=P) it joins at once a large board
// made from the seed, with P remote pointers wandering over it at 60 Hz (the renderer benchmark's page; see
// fake-large.ts). Never used by the real app path (see bridge/select-bridge.ts).
import type {
  NearestHosts,
  ApiCommand,
  ApiEvent,
  ApiReply,
  GhostboardBridge,
  HostOptions,
  NetworkConditions,
  PathKind,
  Settings,
} from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import { applySplice, diffSplice } from '../board/text-splice';
import { formatLinkAddress, parseJoinLink } from '../../shared/join-link';
import { fakeNearest, fakePointers, fakeStats, linusDropped } from './fake-peers';
import { largeBoard, wanderingPointers } from './fake-large';
import { fakeHosting, fakeJoinPlan, fakeLanSessions } from './fake-reach';
import { ADA, fakeParticipants, LINUS, materialize, seedObjects, SELF } from './fake-seed';

/** ?objects=N&seed=S&pointers=P: a large seeded board, joined at once, and P pointers at 60 Hz; null: the demo. */
interface LargeBoard {
  readonly objects: number;
  readonly seed: number;
  readonly pointers: number;
}

function largeFromUrl(): LargeBoard | null {
  const q = new URLSearchParams(location.search);
  const int = (name: string, fallback: number, max: number): number => {
    const v = Number(q.get(name) ?? fallback);
    return Number.isInteger(v) && v >= 0 ? Math.min(v, max) : fallback;
  };
  const objects = int('objects', 0, 100_000);
  if (objects === 0) return null;
  return { objects, seed: int('seed', 1, 2 ** 31), pointers: int('pointers', 0, 8) };
}

class FakeCore {
  private readonly large = largeFromUrl();
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private board = new Map<ObjectId, BoardObject>();
  private nextId = 1;
  private name = 'You';
  private settings: Settings = { directories: ['directory.example.org:7340'] };
  private hostOptions: HostOptions = { name: 'You' };
  private joined = false;
  /** Joined by a link of several hosts: what the (pretend) probes found. */
  private nearest: NearestHosts | undefined;
  private seq = 1;
  private conditions: NetworkConditions = { lossPct: 0, delayMs: 0, kbps: 0 };
  private readonly started = performance.now();
  private timers: number[] = [];
  private dropping = false;
  /** Splices each open editor sent (what an ack tells it); nobody else types on the demo board. */
  private editorSeen = new Map<ObjectId, number>();

  subscribe(l: (e: ApiEvent) => void): () => void {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  }

  private emit(e: ApiEvent): void {
    for (const l of this.listeners) l(e);
  }

  private upsert(o: BoardObject): void {
    this.board.set(o.id, o);
    this.emit({ type: 'objects', upserts: [o], deletes: [] });
  }

  handle(c: ApiCommand): ApiReply {
    switch (c.cmd) {
      case 'host':
        this.name = c.options.name;
        this.hostOptions = c.options;
        this.start(false);
        return { ok: true };
      case 'join':
        this.name = c.options.name;
        this.join(c.options.address, c.options.code);
        return { ok: true };
      case 'leave':
        this.stop();
        this.emit({ type: 'status', status: { phase: 'ended', reason: 'left', detail: '' } });
        return { ok: true };
      case 'sync':
        this.emit({ type: 'status', status: { phase: 'idle' } });
        this.emitLan();
        this.emit({ type: 'settings', settings: this.settings });
        this.emitOpenLink();
        if (this.large) this.start(true, 'bench.example.org', 'direct');
        return { ok: true };
      case 'settings':
        this.settings = c.settings;
        this.emit({ type: 'settings', settings: this.settings });
        return { ok: true };
      case 'create': {
        const o = materialize(c.object, this.nextId++, this.nextId);
        this.upsert(o);
        return { ok: true, id: o.id };
      }
      case 'image': {
        // A stand-in hash (the demo has no host to check one): the image's id, as 64 hex digits.
        const hash = this.nextId.toString(16).padStart(64, '0');
        this.emit({ type: 'image', hash, imageType: c.type, data: c.data });
        const { x, y, w, h } = c;
        const fields = { x, y, w, h, rotation: 0, stroke: null, fill: null, strokeWidth: 0 };
        const object = { ...fields, kind: 'image' as const, text: '', points: [], blob: hash };
        const o = materialize(object, this.nextId++, this.nextId);
        this.upsert(o);
        return { ok: true, id: o.id };
      }
      case 'edit':
      case 'text':
      case 'delete':
      case 'grab':
      case 'drop':
      case 'chat':
      case 'conditions':
        return this.handleBoard(c);
      case 'drag':
      case 'reshape':
      case 'pointer':
      case 'tool':
      case 'viewport':
      case 'restack':
      case 'kick':
      case 'role':
      case 'rotate-code':
        return { ok: true };
      case 'undo':
      case 'redo':
        return { ok: false, reason: `the demo board has nothing to ${c.cmd}` };
      case 'export':
        return { ok: false, reason: 'the demo board exports nothing' };
      case 'import':
        return { ok: false, reason: 'the demo board imports nothing' };
      case 'save':
      case 'save-as':
      case 'open':
      case 'new':
      case 'open-text':
      case 'download':
        return { ok: false, reason: 'the demo board has no file' };
      case 'pin':
        for (const id of c.ids) {
          const o = this.board.get(id);
          if (o) this.upsert({ ...o, pinned: c.pinned ? 1 : 0 });
        }
        return { ok: true };
      case 'text-open':
      case 'text-edit':
      case 'text-close':
        return this.handleTyping(c);
    }
  }

  /** The demo's one editor: its splices apply as they come, each acknowledged at once. */
  private handleTyping(
    c: Extract<ApiCommand, { cmd: 'text-open' | 'text-edit' | 'text-close' }>,
  ): ApiReply {
    const o = this.board.get(c.id);
    switch (c.cmd) {
      case 'text-open': {
        this.editorSeen.set(c.id, 0);
        const d = diffSplice(c.base, o?.text ?? c.base);
        if (d !== null) this.emit({ type: 'text-splice', id: c.id, seen: 0, by: 0, splice: d });
        return { ok: true };
      }
      case 'text-edit': {
        const seen = (this.editorSeen.get(c.id) ?? 0) + 1;
        this.editorSeen.set(c.id, seen);
        if (o) this.upsert({ ...o, text: applySplice(o.text, c) });
        this.emit({ type: 'text-splice', id: c.id, seen, by: 0, splice: null });
        return { ok: true };
      }
      case 'text-close':
        this.editorSeen.delete(c.id);
        return { ok: true };
    }
  }

  private handleBoard(
    c: Extract<
      ApiCommand,
      { cmd: 'edit' | 'text' | 'delete' | 'grab' | 'drop' | 'chat' | 'conditions' }
    >,
  ): ApiReply {
    const o = 'id' in c ? this.board.get(c.id) : undefined;
    switch (c.cmd) {
      case 'edit':
        if (o) this.upsert({ ...o, ...c.patch });
        return o ? { ok: true } : { ok: false, reason: 'no such object' };
      case 'text':
        if (o) this.upsert({ ...o, text: applySplice(o.text, c) });
        return { ok: true };
      case 'delete':
        for (const id of c.ids) this.board.delete(id);
        this.emit({ type: 'objects', upserts: [], deletes: c.ids });
        return { ok: true };
      case 'grab':
        if (o?.lockedBy === LINUS) return { ok: false, reason: 'Linus is moving this object.' };
        if (o) this.upsert({ ...o, lockedBy: SELF });
        return { ok: true };
      case 'drop':
        if (o) this.upsert({ ...o, x: c.x, y: c.y, lockedBy: null });
        return { ok: true };
      case 'chat':
        this.chat(SELF, this.name, 0x1971c2, c.text);
        if (/\?$/.test(c.text.trim()))
          setTimeout(() => {
            this.chat(ADA, 'Ada', 0xe8590c, 'Good question — trying it now.');
          }, 1200);
        return { ok: true };
      case 'conditions':
        this.conditions = c.conditions;
        return { ok: true };
    }
  }

  /** Sessions "found" on the LAN: two at once, a third a moment later (as mDNS answers trickle in). */
  private emitLan(): void {
    const [first, later] = fakeLanSessions();
    this.emit({ type: 'lan-sessions', sessions: first });
    setTimeout(() => {
      this.emit({ type: 'lan-sessions', sessions: later });
    }, 1500);
  }

  /** ?fake=1&open=<link>: as if the desktop had been asked to open an invite link. */
  private emitOpenLink(): void {
    const link = new URLSearchParams(location.search).get('open');
    if (link !== null) this.emit({ type: 'open-link', link });
  }

  private chat(peer: number, name: string, color: number, text: string): void {
    this.emit({
      type: 'chat',
      message: { seq: this.seq++, peer, name, color, text, at: Date.now() },
    });
  }

  private join(address: string, code: string): void {
    const plan = fakeJoinPlan(address);
    // A link naming several hosts (a session's mirrors): as if each was probed and the nearest joined.
    const link = parseJoinLink(address);
    this.nearest =
      link?.kind === 'direct' && link.mirrors !== undefined
        ? fakeNearest([link.host, ...link.mirrors].map(formatLinkAddress))
        : undefined;
    const connecting = (stage: 'looking-up' | 'connecting'): void => {
      this.emit({ type: 'status', status: { phase: 'connecting', address: plan.shown, stage } });
    };
    connecting(plan.lookUp ? 'looking-up' : 'connecting');
    const looked = plan.lookUp ? 900 : 0;
    if (plan.lookUp)
      setTimeout(() => {
        connecting('connecting');
      }, looked);
    setTimeout(() => {
      if (code === 'wrong') {
        this.emit({
          type: 'status',
          status: { phase: 'ended', reason: 'wrong-code', detail: 'handshake refused' },
        });
      } else if (address.startsWith('nowhere')) {
        this.emit({
          type: 'status',
          status: { phase: 'ended', reason: 'unreachable', detail: `no answer from ${address}` },
        });
      } else this.start(true, plan.shown, plan.path);
    }, looked + 700);
  }

  private start(joined: boolean, address = '', path: PathKind = 'direct'): void {
    this.stop();
    this.joined = joined;
    const objects = this.large
      ? largeBoard(this.large.objects, this.large.seed)
      : seedObjects().map((o, i) => materialize(o, i + 1, i + 1));
    this.board = new Map(objects.map((o) => [o.id, o]));
    this.nextId = this.board.size + 1;
    const status: ApiEvent = joined
      ? {
          type: 'status',
          status: {
            phase: 'joined',
            address,
            hostName: 'Ada',
            you: SELF,
            received: this.board.size,
            total: this.board.size,
            path,
          },
        }
      : {
          type: 'status',
          status: fakeHosting(this.name, this.hostOptions, this.settings.directories, false),
        };
    this.emit(status);
    if (!joined)
      this.timers.push(
        setTimeout(() => {
          const listed = fakeHosting(this.name, this.hostOptions, this.settings.directories, true);
          this.emit({ type: 'status', status: listed });
        }, 1200),
      );
    this.emit({ type: 'board', objects: [...this.board.values()] });
    this.emit({ type: 'participants', list: fakeParticipants(this.name, joined) });
    if (this.large) {
      const { objects, pointers } = this.large;
      if (pointers > 0)
        this.timers.push(
          setInterval(() => {
            this.emit({
              type: 'pointers',
              pointers: wanderingPointers(this.t(), pointers, objects),
              gone: [],
            });
          }, 1000 / 60),
        );
      return;
    }
    this.chat(ADA, 'Ada', 0xe8590c, 'Hi! I moved the plan to the right.');
    this.chat(LINUS, 'Linus', 0x2f9e44, 'Looks good. Testing drags on a lossy link.');
    this.timers.push(
      setInterval(() => {
        this.tickPointers();
      }, 50),
      setInterval(() => {
        this.tickStats();
      }, 250),
    );
  }

  private stop(): void {
    for (const t of this.timers) {
      clearInterval(t);
      clearTimeout(t);
    }
    this.timers = [];
  }

  private t(): number {
    return (performance.now() - this.started) / 1000;
  }

  private tickPointers(): void {
    if (Math.random() * 100 < this.conditions.lossPct) return;
    const t = this.t();
    const pointers = fakePointers(t, this.board);
    for (const p of pointers) this.syncLinusLock(p.drag?.id ?? null, p.peer, t);
    const delay = this.conditions.delayMs + Math.random() * 20;
    setTimeout(() => {
      this.emit({ type: 'pointers', pointers, gone: [] });
    }, delay);
  }

  /** Locks the note while Linus drags it, and moves it where he dropped it. */
  private syncLinusLock(dragId: ObjectId | null, peer: number, t: number): void {
    if (peer !== LINUS) return;
    const note = [...this.board.values()].find((o) => o.lockedBy === LINUS);
    if (dragId !== null && !note) {
      const o = this.board.get(dragId);
      if (o && o.lockedBy === null) this.upsert({ ...o, lockedBy: LINUS });
    } else if (note && linusDropped(t) && !this.dropping) {
      this.dropping = true;
      setTimeout(() => {
        this.dropping = false;
        this.upsert({ ...note, x: 700, y: 320, lockedBy: null });
      }, 150 + this.conditions.delayMs);
    }
  }

  private tickStats(): void {
    const t = this.t();
    const stats = fakeStats(t, this.conditions);
    const nearest = this.nearest;
    this.emit({ type: 'stats', stats: nearest ? { ...stats, nearest } : stats });
    if (Math.round(t * 4) % 4 === 0) {
      const list = fakeParticipants(this.name, this.joined).map((p) => ({
        ...p,
        rttMs: p.isSelf
          ? null
          : Math.round((p.id === ADA ? 38 : 112) + 2 * this.conditions.delayMs),
        idleMs: p.id === LINUS ? 0 : p.isSelf ? 0 : Math.round((t % 90) * 1000),
      }));
      this.emit({ type: 'participants', list });
    }
  }
}

export function createFakeBridge(): GhostboardBridge {
  const core = new FakeCore();
  return {
    invoke: (command) =>
      new Promise((resolve) => {
        setTimeout(() => {
          resolve(core.handle(command));
        }, 15);
      }),
    subscribe: (listener) => core.subscribe(listener),
  };
}
