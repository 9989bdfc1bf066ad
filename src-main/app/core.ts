// The app core that every shell (Electron, web host) runs: one session at a time behind the renderer API —
// commands in, events out (board, presence, chat, stats at 4 Hz). Sessions and the clock come in through CoreIo
// (core-io.ts), so tests run it on the simulator. Knows nothing of Electron, HTTP or the DOM.
import { unsettledEvents } from '../session/controls';
import { mkdir } from 'node:fs/promises';
import type {
  ApiCommand,
  HostOptions,
  ApiEvent,
  ApiReply,
  NetworkConditions,
  SessionStatus,
  Settings,
} from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { MAX_LINK_HOSTS, readJoinLink } from '../../shared/join-link';
import type { PeerAddress } from '../net/address';
import { addressKey, parseAddress } from '../net/address';
import { generateJoinCode } from '../net/join-code';
import type { SessionEvent } from '../session/session-events';
import type { AppCore, AppCoreOptions } from './core-api';
import type { CoreClock, CoreIo, SessionFactory, SessionHandle } from './core-io';
import { REAL_IO } from './core-io';
import { EventTranslator } from './translate';
import {
  HOST_SILENT_MS,
  isRetryable,
  NEARER_SETTLE_MS,
  otherHosts,
  REJOIN_GIVE_UP_MS,
  rejoinTry,
  silenceLimit,
} from './rejoin';
import { imageEvent } from './images';
import { fileCommand, isFileCommand, loadStart } from './file-commands';
import type { LoadedBoard } from './file-commands';
import type { OpenFile } from './open-file';
import { hostedFile, runHostedFile } from './hosted-file';
import { listUnsaved } from './unsaved-boards';
import { ObjectBatch } from '../../shared/object-batch';
import { LanPresence, lanEnabled, type LanOptions } from './lan-presence';
import { exportReply, sessionCommand } from './session-commands';
import type { CommandContext } from './session-commands';
import { hostingStatus, withCode, withMirrors } from './hosting-status';
import { SessionReach } from './session-reach';
import { OutsideOffers } from './outside-offers';
import { ChatLog } from './chat-log';
import { endReason } from './end-reason';
import { impairmentOf } from './network-conditions';
import { resolveDirectories } from './directories';
import { SettingsStore } from './settings-store';
import { keepJoinedCopy } from './joined-copy';

const STATS_MS = 250;
const DEFAULT_PORT = 7350;

export { directoriesFromArgs, directoriesFromEnv } from './directories';
export { JOINED_COPY_FILE } from './joined-copy';

/** The core on real sockets and timers, unless `io` says otherwise (tests: simulated sessions and time). */
export function createAppCore(options: AppCoreOptions & LanOptions, io: CoreIo = REAL_IO): AppCore {
  return new Core(options, io);
}

class Core implements AppCore {
  private runner: SessionHandle | undefined;
  private status: SessionStatus = { phase: 'idle' };
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private readonly chat = new ChatLog();
  private conditions: NetworkConditions = { lossPct: 0, delayMs: 0, kbps: 0 };
  private stopStats: (() => void) | undefined;
  private translator: EventTranslator | undefined;
  private readonly sessions: SessionFactory;
  private readonly clock: CoreClock;
  private readonly startedAt: number;
  private readonly lan: LanPresence | undefined;
  private readonly settings: SettingsStore;
  /** The join link and board file opened from outside, and the recent files: again on sync. */
  private readonly offers: OutsideOffers;
  /** The session's reach: its directories, a join's stages and path, what probes of its hosts found. */
  private readonly reach: SessionReach;
  /**
   * Joining: what the join was asked with (a rejoin asks the same), the code it resolved to, and the hosts its link
   * named (a direct link's host and mirrors: where to go if the joined one dies).
   */
  private joinArgs:
    | {
        name: string;
        address: string;
        code: string;
        resolvedCode: string;
        linkHosts: readonly PeerAddress[];
      }
    | undefined;
  /** Joining: the session's hosts as the joined host last told them (its `hosts` message). */
  private sessionHosts: readonly PeerAddress[] = [];
  /**
   * The host went away while joined: the board as it last was (still shown and exportable), the joined status it
   * had, the tries so far, when it began, and the next try's timer.
   */
  private rejoin:
    | {
        readonly board: readonly BoardObject[];
        /** The images it showed (the closed session's store, kept with the board). */
        readonly images: { get(hash: string): ImageBlob | undefined };
        readonly joined: Extract<SessionStatus, { phase: 'joined' }>;
        readonly since: number;
        /** Why the host went away, and its address key (the one a failover does not try first). */
        readonly cause: string;
        readonly gone: string | undefined;
        attempt: number;
        /** The try under way is at another host of the session (a failover). */
        elsewhere: boolean;
        cancel?: () => void;
      }
    | undefined;
  /** Hosting: the board's open file (files). */
  private file: OpenFile | undefined;
  /** Board changes not yet told to the renderer, and the cancel of the timer that will tell them. */
  private readonly objects = new ObjectBatch();
  /** What the board and session commands need of this core (session-commands.ts). */
  private readonly commandContext: CommandContext = {
    setConditions: (c) => this.setConditions(c),
    emit: (e) => this.emit(e),
    now: () => this.clock.now(),
  };
  private flushSoon: (() => void) | undefined;
  /** What the renderer was last told of this user's undo and redo. */
  private historyShown: { canUndo: boolean; canRedo: boolean } | undefined;

  constructor(
    private readonly options: AppCoreOptions & LanOptions,
    io: CoreIo,
  ) {
    this.sessions = io.sessions;
    this.clock = io.clock;
    this.startedAt = io.clock.now();
    this.settings = new SettingsStore(options);
    this.reach = new SessionReach({
      runner: () => this.runner,
      status: () => this.status,
      setStatus: (s) => this.setStatus(s),
      emit: (e) => this.emit(e),
      clock: io.clock,
    });
    this.offers = new OutsideOffers((e) => this.emit(e));
    this.lan = lanEnabled(options) ? new LanPresence((e) => this.emit(e)) : undefined;
  }

  subscribe(listener: (e: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Board changes wait in a batch until the end of the turn that brought them, or until anything else is said
   * (so the renderer hears everything in the order it happened), or a command replies.
   */
  private emit(e: ApiEvent): void {
    if (e.type === 'objects') {
      this.objects.add(e);
      this.flushSoon ??= this.clock.after(0, () => this.flushObjects());
      return;
    }
    this.flushObjects();
    this.tell(e);
  }

  private flushObjects(): void {
    this.flushSoon?.();
    this.flushSoon = undefined;
    const batch = this.objects.take();
    if (batch !== undefined) this.tell(batch);
  }

  private tell(e: ApiEvent): void {
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
    } finally {
      this.flushObjects();
    }
  }

  private async run(c: ApiCommand): Promise<ApiReply> {
    const now = this.clock.now();
    if (c.cmd === 'host') return this.host(c.options);
    if (c.cmd === 'join') return this.join(c.options.name, c.options.address, c.options.code);
    if (c.cmd === 'sync') return this.sync();
    if (c.cmd === 'settings') return this.saveSettings(c.settings);
    if (c.cmd === 'leave') {
      this.stopRejoin();
      await this.end('left', '');
      this.setStatus({ phase: 'idle' });
      return { ok: true };
    }
    // Between tries to rejoin, the board as it was can still be saved.
    if (c.cmd === 'export' && this.rejoin !== undefined && this.status.phase === 'joined')
      return exportReply(this.rejoin.board, c, this.rejoin.images);
    const r = this.runner;
    if (r === undefined) return { ok: false, reason: 'not in a session' };
    if (isFileCommand(c)) {
      const reply = await fileCommand(c, r.controls, this.file, now, (e) => this.emit(e));
      this.emit({ type: 'board', objects: r.controls.board.all() });
      r.flush();
      this.emitHistory(false);
      return reply;
    }
    const reply = await sessionCommand(c, r.controls, now, this.commandContext);
    r.flush();
    this.emitHistory(false);
    return reply;
  }

  /** Tells the renderer whether there is a step to undo or redo, when that changed (or always: `force`). */
  private emitHistory(force: boolean): void {
    const s = this.runner?.controls;
    const now = { canUndo: s?.canUndo ?? false, canRedo: s?.canRedo ?? false };
    const last = this.historyShown;
    if (!force && last?.canUndo === now.canUndo && last.canRedo === now.canRedo) return;
    this.historyShown = now;
    this.emit({ type: 'history', ...now });
  }

  private async host(o: HostOptions): Promise<ApiReply> {
    const { name, port, code } = o;
    if (this.runner) return { ok: false, reason: 'already in a session' };
    await mkdir(this.options.dataDir, { recursive: true });
    const joinCode = code ?? generateJoinCode();
    const settings = await this.settings.current();
    const configured = settings.directories;
    const space = settings.imageSpaceMb;
    const reach = o.reach ?? (configured.length > 0 ? 'directory' : 'lan');
    if (reach === 'directory' && configured.length === 0)
      return {
        ok: false,
        reason: 'no directory is set: add one in the settings, or host on the LAN only',
      };
    const directories = reach === 'directory' ? await resolveDirectories(configured) : [];
    if (reach === 'directory' && directories.length === 0)
      return { ok: false, reason: `no directory could be found (${configured.join(', ')})` };
    // The board it starts with is read first: one that cannot be opened hosts nothing.
    const start = await loadStart(o.board, this.options.dataDir);
    if (start !== undefined && 'refused' in start) return { ok: false, reason: start.refused };
    // No board file: a session starts empty unless the user picked one (nothing is brought back unasked).
    const base = {
      name,
      code: joinCode,
      bind: this.options.bind ?? '0.0.0.0',
      ...(directories.length > 0 ? { directories } : {}),
      ...(reach === 'directory' && o.listName !== undefined ? { listName: o.listName } : {}),
      ...(space === undefined ? {} : { imageLimits: { maxSessionBytes: space * 2 ** 20 } }),
    };
    let runner: SessionHandle;
    try {
      runner = await this.sessions.host({ ...base, port: port ?? DEFAULT_PORT });
    } catch {
      // The usual port is taken (another host on this machine): any free port will do.
      runner = await this.sessions.host({ ...base, port: 0 });
    }
    this.adopt(runner);
    this.setStatus(hostingStatus(runner, name, joinCode, configured, directories.length));
    runner.onReach((e) => this.reach.onReach(runner, e));
    this.lan?.hosting(name, runner.address.port, 1);
    const started = this.openFile(
      runner,
      start,
      o.board?.kind === 'recovered' ? o.board.id : undefined,
    );
    for (const b of runner.controls.images.all()) this.emit(imageEvent(b));
    this.emit({ type: 'board', objects: runner.controls.board.all() });
    this.emitParticipants();
    if (!started.ok) {
      await this.end('left', '');
      this.setStatus({ phase: 'idle' });
    }
    return started;
  }

  private async join(name: string, address: string, typedCode: string): Promise<ApiReply> {
    if (this.runner) return { ok: false, reason: 'already in a session' };
    const read = readJoinLink(address);
    const link = 'error' in read ? undefined : read;
    if ('error' in read && address.trim().toLowerCase().startsWith('ghostboard:'))
      return {
        ok: false,
        reason:
          read.error === 'too-many-hosts'
            ? `that link names more than ${MAX_LINK_HOSTS} hosts: ask for a new one`
            : 'that link is incomplete: ask the host to copy it again',
      };
    const code = typedCode.trim() !== '' ? typedCode : (link?.code ?? '');
    if (code === '') return { ok: false, reason: 'enter the join code' };
    let host: PeerAddress | { directories: PeerAddress[]; session: string } | undefined;
    let mirrors: readonly PeerAddress[] = [];
    let shown = address.trim();
    if (link?.kind === 'directory') {
      const directories = await resolveDirectories(link.directories.map((d) => addressKey(d)));
      if (directories.length === 0)
        return { ok: false, reason: 'the link names no directory that can be found' };
      host = { directories, session: link.session };
      shown = link.session;
    } else if (link?.kind === 'direct') {
      host = link.host;
      mirrors = link.mirrors ?? [];
      shown = addressKey(link.host);
    } else {
      host = parseAddress(address.trim());
    }
    if (host === undefined)
      return {
        ok: false,
        reason: 'the address must look like 192.168.1.20:7350, or paste an invite link',
      };
    if (this.rejoin === undefined) this.sessionHosts = [];
    const linkHosts = 'address' in host ? [host, ...mirrors] : [];
    this.joinArgs = { name, address, code: typedCode, resolvedCode: code, linkHosts };
    return this.dial(name, code, host, mirrors, shown);
  }

  /** Failover: joins the nearest of these hosts of the session (probing them all), as the first join was asked. */
  private joinAt(hosts: readonly PeerAddress[]): Promise<ApiReply> {
    const args = this.joinArgs;
    const [host, ...mirrors] = hosts;
    if (args === undefined || host === undefined)
      return Promise.resolve({ ok: false, reason: 'no host' });
    return this.dial(args.name, args.resolvedCode, host, mirrors, addressKey(host));
  }

  private async dial(
    name: string,
    code: string,
    host: PeerAddress | { directories: PeerAddress[]; session: string },
    mirrors: readonly PeerAddress[],
    shown: string,
  ): Promise<ApiReply> {
    if (this.runner) return { ok: false, reason: 'already in a session' };
    const known = this.knownHosts();
    const runner = await this.sessions.join({
      name,
      code,
      host,
      ...(mirrors.length > 0 ? { mirrors } : {}),
      ...(known.length > 0 ? { knownHosts: known } : {}),
    });
    this.reach.reset({ keepProbes: this.rejoin?.cause === 'nearer' });
    this.adopt(runner);
    runner.onReach((e) => this.reach.onReach(runner, e));
    // Rejoining, the board screen stays as it was (with its reconnecting status) until the host answers.
    if (this.rejoin === undefined)
      this.setStatus({
        phase: 'connecting',
        address: shown,
        stage: 'address' in host ? 'connecting' : 'looking-up',
      });
    return { ok: true };
  }

  private async saveSettings(s: Settings): Promise<ApiReply> {
    await this.settings.save(s);
    this.emit({ type: 'settings', settings: s });
    return { ok: true };
  }

  private adopt(runner: SessionHandle): void {
    this.runner = runner;
    this.historyShown = undefined;
    this.offers.sessionStarted();
    this.chat.clear();
    this.translator = new EventTranslator(
      runner.controls,
      (e) => this.emit(e),
      this.clock.now,
      (key) => runner.pathOfKey(key),
    );
    runner.controls.on((e) => this.onSession(e));
    this.setConditions(this.conditions);
    this.stopStats = this.clock.every(STATS_MS, () => this.emitStats());
  }

  private onSession(e: SessionEvent): void {
    const t = this.translator;
    if (t === undefined) return;
    switch (e.type) {
      case 'ready':
      case 'progress':
        t.translate(e);
        // A step of the bar (2 %) or the end is news; each object of a 5,000-object join is not.
        if (e.type === 'progress' && !t.progressIsNews(e.received, e.total)) return;
        if (this.runner?.controls.role === 'peer' && this.status.phase !== 'ended')
          this.joinedStatus();
        return;
      case 'chat': {
        const m = t.chatMessage(e.peer, e.text, this.chat.nextSeq());
        this.chat.add(m);
        this.emit({ type: 'chat', message: m });
        return;
      }
      case 'ended':
        void this.end(e.reason, e.detail);
        return;
      case 'code':
        if (this.status.phase === 'hosting') this.setStatus(withCode(this.status, e.code));
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
      case 'text-splice':
        this.emit({ type: 'text-splice', id: e.id, seen: e.seen, by: e.by, splice: e.splice });
        return;
      case 'hosts':
        if (this.runner?.controls.role === 'peer') this.sessionHosts = e.hosts;
        return;
      case 'created':
      case 'deleted':
      case 'dropped':
      case 'grabbed':
      case 'object':
      case 'pointer':
      case 'refused':
      case 'image':
      case 'image-progress':
        t.translate(e);
        return;
    }
  }

  private joinedStatus(): void {
    const r = this.runner;
    if (!r) return;
    const s = r.controls;
    const first = s.connections()[0];
    const you = s.you;
    if (you === undefined) return;
    const prev = this.status;
    const address =
      prev.phase === 'connecting' || prev.phase === 'joined'
        ? prev.address
        : (first?.stack.conn.peer ?? '');
    const progress =
      s.role === 'peer'
        ? (this.translator?.progress ?? { received: 0, total: 0 })
        : { received: 0, total: 0 };
    const hostName = s.participants.find((p) => p.isHost)?.name ?? first?.name ?? 'host';
    const path = this.reach.path ?? r.path;
    const back = this.rejoin !== undefined;
    const elsewhere = this.rejoin?.elsewhere === true;
    this.stopRejoin();
    this.setStatus({
      phase: 'joined',
      // Moved to another host: the one joined now (a probe's report may have said so already).
      address: elsewhere ? (first?.stack.conn.peer ?? address) : address,
      hostName,
      you,
      ...progress,
      ...(path === undefined ? {} : { path }),
    });
    if (prev.phase === 'connecting' || back) this.emit({ type: 'board', objects: s.board.all() });
    if (back)
      this.emit({
        type: 'notice',
        level: 'info',
        text: elsewhere
          ? `Moved to another host of the session (${hostName}): the board is live again.`
          : `${hostName} is back: the board is live again.`,
      });
  }

  /**
   * Hosting: the board starts Untitled, or as the board the user picked (filesleft: `start`); a named file is
   * autosaved as it changes, a board with no file keeps its unsaved changes in its own unsaved store (`slot`: the
   * recovered one's).
   */
  private openFile(runner: SessionHandle, start: LoadedBoard | undefined, slot?: string): ApiReply {
    const s = runner.controls;
    const file = hostedFile(s, this.options.dataDir, slot, (e) => this.emit(e));
    this.file = file;
    const app = { clock: this.clock, tickMs: STATS_MS, emit: (e: ApiEvent) => this.emit(e) };
    const { started, stop } = runHostedFile(s, file, start, app);
    const stopStats = this.stopStats;
    this.stopStats = () => {
      stop();
      stopStats?.();
    };
    return started;
  }

  private async end(reason: string, detail: string): Promise<void> {
    const file = this.file;
    this.file = undefined;
    // A named file gets what changed since its last save; a board with no file keeps its unsaved changes for the
    // start screen to offer back.
    await file?.finish();
    if (file !== undefined) await this.emitRecoveries();
    const r = this.runner;
    const st = this.status;
    const board = r?.controls.board.all() ?? [];
    const images = r?.controls.images;
    const gone =
      r?.controls.role === 'peer' ? r.controls.connections()[0]?.stack.conn.peer : undefined;
    // A failover that found no other host after the host left on purpose ends as the host leaving.
    const cause = this.rejoin?.cause;
    this.runner = undefined;
    this.translator = undefined;
    this.stopStats?.();
    this.stopStats = undefined;
    if (r) await Promise.all([r.close(), this.lan?.unhost()]);
    if (this.keepTrying(reason, st, { board, images }, r?.controls.role, gone)) return;
    const ended = cause !== undefined && !isRetryable(cause) ? cause : reason;
    if (ended !== 'left') this.setStatus({ phase: 'ended', reason: endReason(ended), detail });
  }

  /**
   * A joined session (or a try to rejoin it) ended in a way it may come back from: at once at another of the
   * session's hosts when it has others (failover), else at the same host later (rejoin.ts); says so, keeping the
   * board on screen; true while it does. Gives up after REJOIN_GIVE_UP_MS.
   */
  private keepTrying(
    reason: string,
    st: SessionStatus,
    last: {
      readonly board: readonly BoardObject[];
      readonly images: { get(hash: string): ImageBlob | undefined } | undefined;
    },
    role: 'host' | 'peer' | undefined,
    gone: string | undefined,
  ): boolean {
    const now = this.clock.now();
    const was = this.rejoin;
    const attempt = (was?.attempt ?? 0) + 1;
    const next = rejoinTry(
      reason,
      was?.cause ?? reason,
      attempt,
      this.knownHosts(),
      was?.gone ?? gone,
    );
    const fresh = was === undefined && st.phase === 'joined' && role === 'peer';
    if (
      this.joinArgs === undefined ||
      next === undefined ||
      (was === undefined && !fresh) ||
      (was !== undefined && now - was.since >= REJOIN_GIVE_UP_MS)
    ) {
      this.stopRejoin();
      return false;
    }
    if (was === undefined && st.phase === 'joined') {
      const images = last.images ?? { get: () => undefined };
      const board = last.board;
      this.rejoin = {
        board,
        images,
        joined: st,
        since: now,
        cause: reason,
        gone,
        attempt: 0,
        elsewhere: false,
      };
      void keepJoinedCopy(this.options.dataDir, board, images);
    }
    const rejoin = this.rejoin;
    if (rejoin === undefined) return false;
    rejoin.attempt = attempt;
    rejoin.elsewhere = next.elsewhere;
    const elsewhere = next.elsewhere ? { elsewhere: true } : {};
    const nearer = reason === 'nearer' ? { nearer: true } : {};
    this.setStatus({ ...rejoin.joined, reconnecting: { attempt, ...elsewhere, ...nearer } });
    const args = this.joinArgs;
    rejoin.cancel = this.clock.after(next.delayMs, () => {
      if (this.rejoin !== rejoin || this.runner !== undefined) return;
      const tried =
        next.hosts.length > 0
          ? this.joinAt(next.hosts)
          : this.join(args.name, args.address, args.code);
      void tried.then((r) => {
        // A link whose directories cannot be found now is one more try that failed.
        if (!r.ok && this.rejoin === rejoin) void this.end('unreachable', r.reason);
      });
    });
    return true;
  }

  /** The session's hosts a joiner knows of: the joined host's own list first, then those its link named. */
  private knownHosts(): PeerAddress[] {
    return [...this.sessionHosts, ...(this.joinArgs?.linkHosts ?? [])];
  }

  private stopRejoin(): void {
    this.rejoin?.cancel?.();
    this.rejoin = undefined;
  }

  /**
   * Watches a joined session's host: silent for HOST_SILENT_MS, the status says it is reconnecting; when the session
   * has other hosts, silent for their (shorter) silenceLimit, it is left for the nearest of them (rejoin.ts).
   */
  private watchHost(): void {
    const st = this.status;
    const r = this.runner;
    if (st.phase !== 'joined' || r?.controls.role !== 'peer' || this.rejoin !== undefined) return;
    const conn = r.controls.connections()[0]?.stack.conn;
    if (conn === undefined) return;
    const quiet = this.clock.now() - conn.heardAt;
    const others = otherHosts(this.knownHosts(), conn.peer).length;
    if (others > 0 && quiet > silenceLimit(others)) {
      void this.end('timeout', `nothing heard from the host for ${Math.round(quiet)} ms`);
      return;
    }
    const silent = quiet > HOST_SILENT_MS;
    if (!silent && this.moveNearer(r)) return;
    if (silent === (st.reconnecting !== undefined)) return;
    const rest = { ...st };
    delete rest.reconnecting;
    this.setStatus(silent ? { ...rest, reconnecting: { attempt: 0 } } : rest);
  }

  /**
   * Leaves for a host found clearly nearer once joined (session-reach.ts), as a failover leaves a dead one: the
   * session's other hosts are probed and the nearest joined, the board kept on screen meanwhile. Only once nothing
   * this joiner sent waits for an acknowledgement; dropped if that takes NEARER_SETTLE_MS. True when it left.
   */
  private moveNearer(r: SessionHandle): boolean {
    const n = this.reach.nearer;
    if (n === undefined) return false;
    // Left only for a rejoin elsewhere (keepTrying): never where this end could end the session.
    const conn = r.controls.connections()[0]?.stack.conn;
    if (this.joinArgs === undefined || otherHosts(this.knownHosts(), conn?.peer).length === 0) {
      this.reach.nearer = undefined;
      return false;
    }
    if (unsettledEvents(r.controls) > 0) {
      if (this.clock.now() - n.foundAt > NEARER_SETTLE_MS) this.reach.nearer = undefined;
      return false;
    }
    this.reach.nearer = undefined;
    void this.end('nearer', `${addressKey(n.to)} answers sooner than this host`);
    return true;
  }

  private setConditions(c: NetworkConditions): void {
    this.conditions = c;
    const t = this.runner?.transport;
    if (!t) return;
    t.setConditions(impairmentOf(c));
  }

  private emitParticipants(): void {
    this.translator?.emitParticipants();
  }

  /** Hosting: the status follows the mirror link and the session's hosts (hosting-status.ts withMirrors). */
  private watchMirrorLink(): void {
    const st = this.status;
    if (st.phase !== 'hosting') return;
    const next = withMirrors(st, this.runner);
    if (next !== undefined) this.setStatus(next);
  }

  private emitStats(): void {
    this.watchHost();
    this.watchMirrorLink();
    const t = this.translator;
    if (t === undefined) return;
    const stats = t.stats(this.clock.now() - this.startedAt, this.conditions);
    this.emit({
      type: 'stats',
      stats: this.reach.nearest === undefined ? stats : { ...stats, nearest: this.reach.nearest },
    });
    t.emitParticipants();
  }

  openLink(text: string): boolean {
    return this.offers.openLink(text);
  }

  offerBoardFile(path: string): void {
    this.offers.offerBoardFile(path);
  }

  setRecentFiles(paths: readonly string[]): void {
    this.offers.setRecentFiles(paths);
  }

  /** The unsaved boards the start screen offers to recover (filesleft). */
  private async emitRecoveries(): Promise<void> {
    const boards = await listUnsaved(this.options.dataDir).catch(() => []);
    this.emit({ type: 'recoveries', boards });
  }

  private async sync(): Promise<ApiReply> {
    this.emit({ type: 'status', status: this.status });
    // Only the start screen shows them: a host is not held up reading boards (its own included) on a sync.
    if (this.runner === undefined) await this.emitRecoveries();
    this.offers.resend(this.runner !== undefined);
    this.emit({ type: 'settings', settings: await this.settings.current() });
    this.lan?.resend();
    const r = this.runner;
    if (r) {
      for (const b of r.controls.images.all()) this.emit(imageEvent(b));
      this.emit({ type: 'board', objects: r.controls.board.all() });
      this.emitParticipants();
      for (const m of this.chat.all()) this.emit({ type: 'chat', message: m });
      this.file?.show(true);
    }
    this.emitHistory(true);
    return { ok: true };
  }

  async close(): Promise<void> {
    await this.end('left', '');
    await this.lan?.close();
  }
}
