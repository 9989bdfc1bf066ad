// The app core's LAN presence: browses for sessions while the core runs (the 'lan-sessions' event) and
// announces the session it hosts. Knows nothing of Electron, HTTP or the session's internals.
import type { ApiEvent, LanSessionInfo } from '../../shared/api';
import { PROTOCOL_VERSION } from '../../shared/version';
import { advertise, type AdvertiseHandle } from '../lan/advertise';
import { browse, type BrowseHandle } from '../lan/browse';
import type { LanSession } from '../lan/table';

export interface LanOptions {
  /**
   * Browse for and announce sessions on the LAN (mDNS). Default: on, unless sessions bind a loopback address
   * (then no one on the LAN could join anyway; the core's tests bind 127.0.0.1).
   */
  readonly lan?: boolean;
}

export function lanEnabled(o: LanOptions & { readonly bind?: string }): boolean {
  if (o.lan !== undefined) return o.lan;
  const b = o.bind ?? '';
  return !(b.startsWith('127.') || b === '::1' || b === 'localhost');
}

export function toLanInfo(s: LanSession): LanSessionInfo {
  return {
    id: s.id,
    name: s.name,
    addresses: s.addresses,
    port: s.port,
    version: s.version,
    compatible: s.version === PROTOCOL_VERSION,
    users: s.users,
  };
}

export class LanPresence {
  private readonly browser: BrowseHandle;
  private advert: AdvertiseHandle | undefined;
  private warned = false;

  constructor(private readonly emit: (e: ApiEvent) => void) {
    this.browser = browse((list) => this.emitList(list), { onError: (m) => this.warn(m) });
  }

  /** The current list as an event (for 'sync'). */
  resend(): void {
    this.emitList(this.browser.list());
  }

  /** Announces a hosted session; a failure only costs the LAN listing, never the session. */
  hosting(name: string, port: number, users: number): void {
    void this.unhost();
    try {
      this.advert = advertise({ name, port, users, onError: (m) => this.warn(m) });
    } catch (e) {
      this.warn(e instanceof Error ? e.message : String(e));
    }
  }

  users(n: number): void {
    this.advert?.update({ users: n });
  }

  /** Sends goodbyes for the hosted session, if any. */
  async unhost(): Promise<void> {
    const a = this.advert;
    this.advert = undefined;
    await a?.stop();
  }

  async close(): Promise<void> {
    await Promise.all([this.unhost(), this.browser.stop()]);
  }

  private emitList(list: readonly LanSession[]): void {
    this.emit({ type: 'lan-sessions', sessions: list.map(toLanInfo) });
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.emit({
      type: 'notice',
      level: 'info',
      text: `Sessions on this network can't be listed or announced (${message}); join by address.`,
    });
  }
}
