// The app core that every shell (Electron, web host) runs: one session at a time behind the renderer API —
// commands in, events out (board, presence, chat, stats at 4 Hz). Knows nothing of Electron, HTTP or the DOM.
import { mkdir } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import type {
  ApiCommand,
  ApiEvent,
  ApiReply,
  ChatMessage,
  NetworkConditions,
  SessionStatus,
} from '../../shared/api';
import { parseAddress } from '../net/address';
import { generateJoinCode } from '../net/join-code';
import { monotonicNow } from '../net/transport';
import { PERFECT_LINK } from '../net/sim/link';
import { SessionRunner } from '../session/runner';
import type { SessionEvent } from '../session/session-events';
import type { AppCore, AppCoreOptions } from './core-api';
import { EventTranslator } from './translate';
import { localAddresses } from './addresses';
import { LanPresence, lanEnabled, type LanOptions } from './lan-presence';

const STATS_MS = 250;
const DEFAULT_PORT = 7350;
const CHAT_HISTORY = 500;

export function createAppCore(options: AppCoreOptions & LanOptions): AppCore {
  return new Core(options);
}

class Core implements AppCore {
  private runner: SessionRunner | undefined;
  private status: SessionStatus = { phase: 'idle' };
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private chat: ChatMessage[] = [];
  private conditions: NetworkConditions = { lossPct: 0, delayMs: 0, kbps: 0 };
  private statsTimer: NodeJS.Timeout | undefined;
  private translator: EventTranslator | undefined;
  private readonly startedAt = monotonicNow();
  private readonly lan: LanPresence | undefined;

  constructor(private readonly options: AppCoreOptions & LanOptions) {
    this.lan = lanEnabled(options) ? new LanPresence((e) => this.emit(e)) : undefined;
  }

  subscribe(listener: (e: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: ApiEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A failing listener (a closed window) must not stop the others.
      }
    }
  }

  private setStatus(s: SessionStatus): void {
    this.status = s;
    this.emit({ type: 'status', status: s });
  }

  async invoke(c: ApiCommand): Promise<ApiReply> {
    try {
      return await this.run(c);
    } catch (e) {
      return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
  }

  private async run(c: ApiCommand): Promise<ApiReply> {
    const now = monotonicNow();
    if (c.cmd === 'host') return this.host(c.options.name, c.options.port, c.options.code);
    if (c.cmd === 'join') return this.join(c.options.name, c.options.address, c.options.code);
    if (c.cmd === 'sync') return this.sync();
    if (c.cmd === 'leave') {
      await this.end('left', '');
      this.setStatus({ phase: 'idle' });
      return { ok: true };
    }
    const r = this.runner;
    if (r === undefined) return { ok: false, reason: 'not in a session' };
    const s = r.controls;
    const reply = await this.sessionCommand(c, s, now);
    r.flush();
    return reply;
  }

  private async sessionCommand(
    c: ApiCommand,
    s: SessionRunner['controls'],
    now: number,
  ): Promise<ApiReply> {
    switch (c.cmd) {
      case 'create': {
        const r = await s.create(now, c.object);
        return typeof r === 'number' ? { ok: true, id: r } : { ok: false, reason: r.refused };
      }
      case 'edit':
        s.edit(now, c.id, c.patch);
        break;
      case 'text':
        s.text(now, c.id, c.at, c.remove, c.insert);
        break;
      case 'delete':
        for (const id of c.ids) s.remove(now, id);
        break;
      case 'restack':
        s.restack(now, c.id, c.front);
        break;
      case 'grab': {
        const o = s.board.get(c.id);
        if (o?.lockedBy !== null && o?.lockedBy !== undefined && o.lockedBy !== s.you) {
          const holder = s.participants.find((p) => p.peer === o.lockedBy)?.name ?? 'someone';
          return { ok: false, reason: `held by ${holder}` };
        }
        s.grab(now, c.id);
        break;
      }
      case 'drag':
        s.drag(now, c.id, c.x, c.y);
        break;
      case 'drop':
        s.drop(now, c.id, c.x, c.y);
        break;
      case 'pointer':
        s.pointer(now, c.x, c.y, c.visible);
        break;
      case 'tool':
        s.tool(now, c.tool);
        break;
      case 'viewport':
        s.viewport(now, c.viewport);
        break;
      case 'chat':
        s.chat(now, c.text);
        break;
      case 'conditions':
        this.setConditions(c.conditions);
        break;
      case 'kick':
        if (s.kick?.(now, c.peer) !== true)
          return { ok: false, reason: 'only the host can remove participants' };
        break;
      case 'role':
        if (s.setRole?.(c.peer, c.role) !== true)
          return { ok: false, reason: 'only the host can change roles' };
        break;
      case 'rotate-code':
        if (s.rotateCode === undefined)
          return { ok: false, reason: 'only the host can change the code' };
        s.rotateCode(now);
        break;
      case 'host':
      case 'join':
      case 'leave':
      case 'sync':
        break;
    }
    return { ok: true };
  }

  private async host(
    name: string,
    port: number | undefined,
    code: string | undefined,
  ): Promise<ApiReply> {
    if (this.runner) return { ok: false, reason: 'already in a session' };
    await mkdir(this.options.dataDir, { recursive: true });
    const joinCode = code ?? generateJoinCode();
    const base = {
      name,
      code: joinCode,
      bind: this.options.bind ?? '0.0.0.0',
      boardFile: joinPath(this.options.dataDir, 'board.json'),
    };
    let runner: SessionRunner;
    try {
      runner = await SessionRunner.host({ ...base, port: port ?? DEFAULT_PORT });
    } catch {
      // The usual port is taken (another host on this machine): any free port will do.
      runner = await SessionRunner.host({ ...base, port: 0 });
    }
    this.adopt(runner);
    this.setStatus({
      phase: 'hosting',
      name,
      addresses: localAddresses(),
      port: runner.address.port,
      code: joinCode,
      you: 0,
    });
    this.lan?.hosting(name, runner.address.port, 1);
    this.emit({ type: 'board', objects: runner.controls.board.all() });
    this.emitParticipants();
    const notice = runner.boardNotice;
    if (notice !== undefined)
      this.emit({
        type: 'notice',
        level: 'warn',
        text:
          `The saved board could not be opened (${notice.reason}); it was kept as ${notice.movedTo}. ` +
          (notice.restoredFrom === undefined
            ? 'Hosting with an empty board.'
            : `Restored from the backup ${notice.restoredFrom}.`),
      });
    return { ok: true };
  }

  private async join(name: string, address: string, code: string): Promise<ApiReply> {
    if (this.runner) return { ok: false, reason: 'already in a session' };
    const to = parseAddress(address);
    if (to === undefined)
      return { ok: false, reason: 'the address must look like 192.168.1.20:7350' };
    const runner = await SessionRunner.join({ name, code, host: to });
    this.adopt(runner);
    this.setStatus({ phase: 'connecting', address });
    return { ok: true };
  }

  private adopt(runner: SessionRunner): void {
    this.runner = runner;
    this.chat = [];
    this.translator = new EventTranslator(runner.controls, (e) => this.emit(e), monotonicNow);
    runner.controls.on((e) => this.onSession(e));
    this.setConditions(this.conditions);
    this.statsTimer = setInterval(() => this.emitStats(), STATS_MS);
  }

  private onSession(e: SessionEvent): void {
    const t = this.translator;
    if (t === undefined) return;
    switch (e.type) {
      case 'ready':
      case 'progress':
        t.translate(e);
        if (this.runner?.controls.role === 'peer' && this.status.phase !== 'ended')
          this.joinedStatus();
        return;
      case 'chat': {
        const m = t.chatMessage(e.peer, e.text, this.chat.length + 1);
        this.chat.push(m);
        if (this.chat.length > CHAT_HISTORY) this.chat.shift();
        this.emit({ type: 'chat', message: m });
        return;
      }
      case 'ended':
        void this.end(e.reason, e.detail);
        return;
      case 'code':
        if (this.status.phase === 'hosting')
          this.setStatus({ ...this.status, code: e.code, codeLocked: false });
        this.emit({ type: 'notice', level: 'info', text: `New join code: ${e.code}` });
        return;
      case 'code-locked':
        if (this.status.phase === 'hosting') this.setStatus({ ...this.status, codeLocked: true });
        this.emit({
          type: 'notice',
          level: 'warn',
          text: `${e.failures} join attempts failed, so the join code is locked and nobody can join. Make a new code (Invite → New code) and give it to the people you invite.`,
        });
        return;
      case 'banned':
        this.emit({
          type: 'notice',
          level: 'warn',
          text: `${e.name} was removed and ${e.address} is refused for this session. Whoever gave them the code can give it again: consider a new code.`,
        });
        return;
      case 'joined':
      case 'left':
        t.translate(e);
        this.lan?.users(this.runner?.controls.participants.length ?? 0);
        return;
      case 'created':
      case 'deleted':
      case 'dropped':
      case 'grabbed':
      case 'object':
      case 'pointer':
      case 'refused':
        t.translate(e);
        return;
    }
  }

  private joinedStatus(): void {
    const r = this.runner;
    if (!r) return;
    const s = r.controls;
    const link = s.links()[0];
    const you = s.you;
    if (you === undefined) return;
    const prev = this.status;
    const address =
      prev.phase === 'connecting' || prev.phase === 'joined'
        ? prev.address
        : (link?.link.conn.peer ?? '');
    const progress =
      s.role === 'peer'
        ? (this.translator?.progress ?? { received: 0, total: 0 })
        : { received: 0, total: 0 };
    const hostName = s.participants.find((p) => p.isHost)?.name ?? link?.name ?? 'host';
    this.setStatus({ phase: 'joined', address, hostName, you, ...progress });
    if (prev.phase === 'connecting') this.emit({ type: 'board', objects: s.board.all() });
  }

  private async end(reason: string, detail: string): Promise<void> {
    const r = this.runner;
    this.runner = undefined;
    this.translator = undefined;
    clearInterval(this.statsTimer);
    if (r) await Promise.all([r.close(), this.lan?.unhost()]);
    const known = [
      'left',
      'kicked',
      'host-left',
      'timeout',
      'wrong-code',
      'version-mismatch',
      'full',
      'rate-limited',
      'banned',
      'code-locked',
      'unreachable',
      'not-found',
      'error',
    ];
    const why = (known.includes(reason) ? reason : 'error') as Extract<
      SessionStatus,
      { phase: 'ended' }
    >['reason'];
    if (reason !== 'left') this.setStatus({ phase: 'ended', reason: why, detail });
  }

  private setConditions(c: NetworkConditions): void {
    this.conditions = c;
    const t = this.runner?.transport;
    if (!t) return;
    const none = c.lossPct === 0 && c.delayMs === 0 && c.kbps === 0;
    t.setConditions(
      none
        ? undefined
        : {
            ...PERFECT_LINK,
            loss: c.lossPct / 100,
            delayMs: c.delayMs,
            bandwidthBps: c.kbps * 1000,
            maxQueueMs: 500,
          },
    );
  }

  private emitParticipants(): void {
    this.translator?.emitParticipants();
  }

  private emitStats(): void {
    const t = this.translator;
    if (t === undefined) return;
    this.emit({ type: 'stats', stats: t.stats(monotonicNow() - this.startedAt, this.conditions) });
    t.emitParticipants();
  }

  private sync(): ApiReply {
    this.emit({ type: 'status', status: this.status });
    this.lan?.resend();
    const r = this.runner;
    if (r) {
      this.emit({ type: 'board', objects: r.controls.board.all() });
      this.emitParticipants();
      for (const m of this.chat) this.emit({ type: 'chat', message: m });
    }
    return { ok: true };
  }

  async close(): Promise<void> {
    await this.end('left', '');
    await this.lan?.close();
  }
}
