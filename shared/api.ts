// The one typed surface between the renderer and the main-process core (DESIGN.md §6): commands, replies and
// events. Carried by Electron IPC (preload + contextBridge) or by the web host's local WebSocket. Types only.
import type { ImageType } from './images';
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from './board';

export const TOOLS = ['select', 'rect', 'ellipse', 'line', 'arrow', 'pen', 'text', 'note'] as const;
export type Tool = (typeof TOOLS)[number];

export type Role = 'editor' | 'viewer';

export interface Participant {
  readonly id: PeerId;
  readonly name: string;
  /** 24-bit RGB, assigned by the host, distinct per participant. */
  readonly color: number;
  readonly role: Role;
  readonly isHost: boolean;
  readonly isSelf: boolean;
  /** Round trip to this participant's connection (host: to each peer; peer: to the host), when known. */
  readonly rttMs: number | null;
  /** Milliseconds since this participant last moved, typed or edited. */
  readonly idleMs: number;
}

/** A remote participant's telepointer and live drag, as last received (the renderer interpolates). */
export interface RemotePointer {
  readonly peer: PeerId;
  readonly x: number;
  readonly y: number;
  readonly tool: Tool;
  readonly visible: boolean;
  /** While they drag an object: which one and where it is now (and its live shape while resizing or rotating). */
  readonly drag: {
    readonly id: ObjectId;
    readonly x: number;
    readonly y: number;
    readonly shape?: LiveShape;
  } | null;
}

/** A held object's live size (world units) and rotation (tenths of a degree, 0..3599) during a resize or rotate. */
export interface LiveShape {
  readonly w: number;
  readonly h: number;
  readonly rotation: number;
}

export interface ChatMessage {
  /** Order of arrival at this participant (the host relays chat in one order to everyone). */
  readonly seq: number;
  readonly peer: PeerId;
  readonly name: string;
  readonly color: number;
  readonly text: string;
  /** Wall-clock time it arrived here, ms since the epoch. */
  readonly at: number;
}

export type SessionStatus =
  | { readonly phase: 'idle' }
  | {
      readonly phase: 'hosting';
      readonly name: string;
      /** Addresses other machines can reach this host at (non-internal interfaces), and the UDP port. */
      readonly addresses: readonly string[];
      readonly port: number;
      readonly code: string;
      /** Too many join attempts failed: the code refuses everyone until the host makes a new one. */
      readonly codeLocked?: boolean;
      readonly you: PeerId;
      /** The invite link: everything a joiner needs (the code after '#'). */
      readonly link?: string;
      /** Hosting through directories: how many list the session now, and our address as they see it. */
      readonly reach?: ReachStatus;
      /**
       * Hosting a session that takes mirrors: the link another machine starts one with
       * (`ghostboard host --mirror-of LINK`), for the share panel's "Add a mirror".
       */
      readonly mirrorLink?: string;
      /**
       * Hosting with mirrors, once another host has joined: every host of the session as this one's group sees it,
       * this one first.
       */
      readonly hosts?: readonly SessionHost[];
    }
  | {
      readonly phase: 'connecting';
      readonly address: string;
      /**
       * Where the join is: asking directories for the host, handshaking over the paths they gave, or (no direct
       * path has answered yet) trying through the relay as well.
       */
      readonly stage?: 'looking-up' | 'connecting' | 'relaying';
    }
  | {
      readonly phase: 'joined';
      readonly address: string;
      readonly hostName: string;
      readonly you: PeerId;
      /** Board objects received of the total the host announced (join progress). */
      readonly received: number;
      readonly total: number;
      /** How this app reaches the host. */
      readonly path?: PathKind;
      /**
       * The host has gone quiet: attempt 0 while the connection still waits for it, then each try to join again
       * (with backoff). The board stays on screen, read-only, until the host is back.
       */
      readonly reconnecting?: {
        readonly attempt: number;
        /** The try is at another host of the session (its mirrors): this one stopped, the session goes on. */
        readonly elsewhere?: boolean;
        /** Not a stop: this joiner is moving to a host of the session that answers clearly sooner. */
        readonly nearer?: boolean;
      };
    }
  | { readonly phase: 'ended'; readonly reason: EndReason; readonly detail: string };

/** One host of a session served by several (its mirrors), as the hosts see each other. */
export interface SessionHost {
  /** Where its joiners reach it: address:port. */
  readonly address: string;
  /** This host (the one reporting). */
  readonly self: boolean;
  /** The round trip between the reporting host and it (ms), once measured; null for the reporter itself. */
  readonly rttMs: number | null;
}

/** How two participants' packets travel: straight across the internet, within one network, or via a relay. */
export type PathKind = 'direct' | 'lan' | 'relayed';

export interface ReachStatus {
  /** Directories configured, and how many list the session now. */
  readonly directories: number;
  readonly listedOn: number;
  /** Our address as a directory sees it (the NAT's public side), once one has answered. */
  readonly publicAddress: string | null;
  /** Listed publicly under this name; null: unlisted, found only through the link. */
  readonly listedAs: string | null;
}

/** Why a session ended or never started: each has a plain message in the UI. */
export type EndReason =
  | 'left'
  | 'kicked'
  | 'host-left'
  | 'timeout'
  | 'wrong-code'
  | 'version-mismatch'
  | 'full'
  | 'rate-limited'
  | 'banned'
  | 'code-locked'
  | 'unreachable'
  /** The directory knows no session by that name (ended, or the link is wrong). */
  | 'not-found'
  | 'error';

/** Traffic of one kind (headers+crypto, events per channel, ghosts per class, strings), kbit/s. */
export interface KindTraffic {
  readonly kind: string;
  readonly kbpsIn: number;
  readonly kbpsOut: number;
}

export interface ConnectionStats {
  readonly peer: PeerId;
  readonly name: string;
  /** The path this connection's packets take. */
  readonly path?: PathKind;
  readonly rttMs: number;
  readonly lossPct: number;
  /** On the wire, IPv4/UDP headers included. */
  readonly kbpsIn: number;
  readonly kbpsOut: number;
  readonly packetsPerSecondIn: number;
  readonly packetsPerSecondOut: number;
  readonly inFlight: number;
  readonly windowSize: number;
  /** The rate in force: packets/s and packet size (the receiver's setting, shaped by the adaptive rate). */
  readonly packetsPerSecond: number;
  readonly packetBytes: number;
  /** The adaptive controller's allowed rate and bandwidth estimate, kbit/s (null: not measured yet). */
  readonly allowedKbps: number | null;
  readonly estimatedKbps: number | null;
  readonly byKind: readonly KindTraffic[];
}

/** Impairment this app adds to its own traffic (built into the transport) to show how it degrades. */
export interface NetworkConditions {
  /** 0..100 */
  readonly lossPct: number;
  /** Added one-way delay on send, ms, 0..2000. */
  readonly delayMs: number;
  /** Upstream cap in kbit/s; 0 = none. */
  readonly kbps: number;
}

export interface StatsSnapshot {
  /** ms since the core started. */
  readonly at: number;
  readonly totalKbpsIn: number;
  readonly totalKbpsOut: number;
  readonly peers: readonly ConnectionStats[];
  readonly conditions: NetworkConditions;
  /** Joined a session with several hosts (mirrors): what each answered to the probes, and which was joined. */
  readonly nearest?: NearestHosts;
}

/** One host of a session, as a joiner's probes found it. */
export interface ProbedHost {
  readonly address: string;
  /** Lowest round-trip time of its answers, ms; null: it did not answer in time. */
  readonly rttMs: number | null;
  /** It answered with another protocol version, so it could not be joined. */
  readonly incompatible: boolean;
}

export interface NearestHosts {
  readonly hosts: readonly ProbedHost[];
  /** The index in `hosts` of the one joined; null: none could be. */
  readonly chosen: number | null;
}

/** A session another host on this network announces (mDNS / DNS-SD): join it with its address and the code. */
export interface LanSessionInfo {
  /** Random per hosted session (not secret, not the join code). */
  readonly id: string;
  /** The host's display name, at most 64 characters. */
  readonly name: string;
  /** IPv4 first; the first is the one the announcement came from. */
  readonly addresses: readonly string[];
  readonly port: number;
  /** The host's wire protocol version, and whether this app speaks it. */
  readonly version: number;
  readonly compatible: boolean;
  readonly users: number | null;
}

export interface HostOptions {
  readonly name: string;
  /** UDP port; absent: 7350 when free, else any free port; 0: any free port. */
  readonly port?: number;
  /** Join code; absent generates a strong one. */
  readonly code?: string;
  /**
   * 'lan': reachable by address (and LAN discovery) only; 'directory': also registered with the configured
   * directories, so a link reaches it through NATs. Absent: 'directory' when any is configured.
   */
  readonly reach?: 'lan' | 'directory';
  /** With 'directory': listed publicly under this name (absent: unlisted, found only through the link). */
  readonly listName?: string;
  /** filesleft: the board to host (absent: a new, empty Untitled board). */
  readonly board?: StartBoard;
}

/**
 * filesleft: what a hosted session starts with: a new board, a board file (desktop: by path; web host: its text,
 * uploaded), or an unsaved board a host that stopped left (the `recoveries` event lists them). A file that cannot
 * be opened (corrupt, foreign, newer) refuses the host command with the reason.
 */
export type StartBoard =
  | { readonly kind: 'new' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'upload'; readonly name: string; readonly text: string }
  | { readonly kind: 'recovered'; readonly id: string };

/** filesleft: an unsaved board a host left in the data folder (it stopped before it was saved), offered back. */
export interface UnsavedBoard {
  /** Names it to the host command's `recovered` board. */
  readonly id: string;
  /** When it was last written, ms since the epoch. */
  readonly savedAt: number;
  readonly objects: number;
}

export interface JoinOptions {
  readonly name: string;
  /** "host:port", "[v6]:port", or a ghostboard:// invite link (which carries the code). */
  readonly address: string;
  /** The join code; may be empty when the link carries it. */
  readonly code: string;
}

/** What the user set once for every session. */
export interface Settings {
  /** Directories (HOST:PORT) hosted sessions register with; empty: none (LAN and addresses only). */
  readonly directories: readonly string[];
  /** Pixels of a pasted image's longer side past which it is downscaled before sending (absent: 2048). */
  readonly imageMaxSide?: number;
  /** Hosting: megabytes every image of the session may take together (absent: 32). */
  readonly imageSpaceMb?: number;
}

export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Every command the renderer can send; the core validates each one (shared/api-validate.ts). */
export type ApiCommand =
  | { readonly cmd: 'host'; readonly options: HostOptions }
  | { readonly cmd: 'join'; readonly options: JoinOptions }
  | { readonly cmd: 'leave' }
  /** `step`: creates sent with the same step number one after another are one undo step (a paste). */
  | { readonly cmd: 'create'; readonly object: NewObject; readonly step?: number }
  | { readonly cmd: 'edit'; readonly id: ObjectId; readonly patch: ObjectPatch }
  | {
      readonly cmd: 'text';
      readonly id: ObjectId;
      readonly at: number;
      readonly remove: number;
      readonly insert: string;
    }
  | { readonly cmd: 'delete'; readonly ids: readonly ObjectId[] }
  /** restack: restacks sent with the same `step` one after another are one undo step (a selection's). */
  | {
      readonly cmd: 'restack';
      readonly id: ObjectId;
      readonly front: boolean;
      readonly step?: number;
    }
  /**
   * Takes back this user's newest step that still applies (never anyone else's), or does the newest undone one
   * again; refused with "nothing to undo" / "nothing to redo" when there is none.
   */
  | { readonly cmd: 'undo' }
  | { readonly cmd: 'redo' }
  | { readonly cmd: 'grab'; readonly id: ObjectId }
  | { readonly cmd: 'drag'; readonly id: ObjectId; readonly x: number; readonly y: number }
  | { readonly cmd: 'drop'; readonly id: ObjectId; readonly x: number; readonly y: number }
  | { readonly cmd: 'pointer'; readonly x: number; readonly y: number; readonly visible: boolean }
  | { readonly cmd: 'tool'; readonly tool: Tool }
  | { readonly cmd: 'viewport'; readonly viewport: Viewport }
  | { readonly cmd: 'chat'; readonly text: string }
  | { readonly cmd: 'conditions'; readonly conditions: NetworkConditions }
  | { readonly cmd: 'kick'; readonly peer: PeerId }
  | { readonly cmd: 'role'; readonly peer: PeerId; readonly role: Role }
  /** Host: a new join code for later joiners (the hosting status carries it). */
  | { readonly cmd: 'rotate-code' }
  | { readonly cmd: 'settings'; readonly settings: Settings }
  /** Asks for the full current state as events (status, board, participants, chat history). */
  | { readonly cmd: 'sync' }
  /**
   * The board, or the objects `ids` names, as a file's text in the reply: a .ghostboard copy, an .excalidraw scene
   * or an SVG (on white, or with no background when `transparent`).
   */
  | {
      readonly cmd: 'export';
      readonly format: ExportFormat;
      readonly ids?: readonly ObjectId[];
      readonly transparent?: boolean;
    }
  /**
   * A held object's live resize or rotate (x, y, w, h, rotation as the board fields): the others see it like a
   * drag; the release is an edit, then a drop.
   */
  | {
      readonly cmd: 'reshape';
      readonly id: ObjectId;
      readonly x: number;
      readonly y: number;
      readonly w: number;
      readonly h: number;
      readonly rotation: number;
    }
  /** Locks objects in place (nothing changes them until unlocked) or unlocks them: one undo step. */
  | { readonly cmd: 'pin'; readonly ids: readonly ObjectId[]; readonly pinned: boolean }
  /**
   * textot: co-editing one text. The editor opened it showing `base` (it is sent the difference as a text-splice);
   * each of its splices comes after `seen` of the text-splice events for it (a no-op splice only acknowledges them);
   * it closed.
   */
  | { readonly cmd: 'text-open'; readonly id: ObjectId; readonly base: string }
  | {
      readonly cmd: 'text-edit';
      readonly id: ObjectId;
      readonly seen: number;
      readonly at: number;
      readonly remove: number;
      readonly insert: string;
    }
  | { readonly cmd: 'text-close'; readonly id: ObjectId }
  /**
   * Puts an image on the board at (x, y), w × h: its bytes (base64, at most MAX_IMAGE_BYTES) go to the host first
   * (refused when too large or the board's image space is full), then the object; the reply carries its id.
   */
  | {
      readonly cmd: 'image';
      readonly type: ImageType;
      readonly data: string;
      readonly x: number;
      readonly y: number;
      readonly w: number;
      readonly h: number;
    }
  /**
   * Adds a board file's objects (a .ghostboard or an .excalidraw scene) to this board as new objects, in their own
   * places and order, as one undo step; a notice says how many came and what did not.
   */
  | { readonly cmd: 'import'; readonly format: 'ghostboard' | 'excalidraw'; readonly text: string }
  // files: the host's open board file (the `file` event says which and whether it has unsaved changes).
  /** Saves the board to its open file; refused when there is none (an Untitled board: Save As). */
  | { readonly cmd: 'save' }
  /** Desktop host: saves the board as the file at `path`, which becomes the open file. */
  | { readonly cmd: 'save-as'; readonly path: string }
  /**
   * Desktop host: the file at `path` replaces the live board (every joiner sees it) and becomes the open file;
   * a corrupt, foreign or newer file is refused with the reason (nothing changes). The renderer confirms
   * discarding unsaved changes first.
   */
  | { readonly cmd: 'open'; readonly path: string }
  /** Host: an empty Untitled board replaces the live board (as `open` does). */
  | { readonly cmd: 'new' }
  /**
   * filesleft: web host: a board file's text (uploaded from the browser, at most MAX_IMPORT_CHARS) replaces the
   * live board as `open` does, with the same refusals; `name` (the file's) is the board's name.
   */
  | { readonly cmd: 'open-text'; readonly name: string; readonly text: string }
  /** filesleft: host: the open board as a .ghostboard file's text in the reply; a board with no path is then saved. */
  | { readonly cmd: 'download' };

/** A board file's text brought into this board (its objects added as new ones, one undo step), up to this size. */
export const MAX_IMPORT_CHARS = 2 * 1024 * 1024;

/** A board file's path in a command (open, save-as), at most this long. */
export const MAX_PATH_CHARS = 4096;

export const EXPORT_FORMATS = ['ghostboard', 'excalidraw', 'svg'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ApiCommandName = ApiCommand['cmd'];

/** The reply to a command: ok (with the created object's id for 'create', the text for 'export'), or refused. */
export type ApiReply =
  | { readonly ok: true; readonly id?: ObjectId; readonly text?: string }
  | { readonly ok: false; readonly reason: string };

export type ApiEvent =
  | { readonly type: 'status'; readonly status: SessionStatus }
  /** The whole board (after sync or join). */
  | { readonly type: 'board'; readonly objects: readonly BoardObject[] }
  | {
      readonly type: 'objects';
      readonly upserts: readonly BoardObject[];
      readonly deletes: readonly ObjectId[];
    }
  | { readonly type: 'participants'; readonly list: readonly Participant[] }
  /** Remote pointers that changed, pushed as they arrive (not batched). */
  | {
      readonly type: 'pointers';
      readonly pointers: readonly RemotePointer[];
      readonly gone: readonly PeerId[];
    }
  | { readonly type: 'chat'; readonly message: ChatMessage }
  /** Something the user should read: a refused grab naming the holder, a kick, a role change. */
  | { readonly type: 'notice'; readonly level: 'info' | 'warn' | 'error'; readonly text: string }
  /** About 4 times a second. */
  | { readonly type: 'stats'; readonly stats: StatsSnapshot }
  /** Sessions found on this network, whole list, on every change (and on sync). */
  | { readonly type: 'lan-sessions'; readonly sessions: readonly LanSessionInfo[] }
  /** The settings in force (on sync and after each change). */
  | { readonly type: 'settings'; readonly settings: Settings }
  /** A join link the desktop opened (a ghostboard:// URL clicked elsewhere): the start screen offers it. */
  | { readonly type: 'open-link'; readonly link: string }
  /**
   * The host (or the core, first) refused this user's command on an object (a notice says why): what the screen
   * showed at once for it (a delete, an edit, a drop) is taken back.
   */
  | { readonly type: 'refused'; readonly cmd: string; readonly id: ObjectId }
  /** Whether this user has a step to undo or redo (the toolbar's buttons), on every change and on sync. */
  | { readonly type: 'history'; readonly canUndo: boolean; readonly canRedo: boolean }
  /**
   * textot: a splice for the open editor of a text (someone else's, or the difference at opening), by whom, after
   * `seen` of the editor's splices; null splice: an acknowledgement alone.
   */
  | {
      readonly type: 'text-splice';
      readonly id: ObjectId;
      readonly seen: number;
      readonly by: PeerId;
      readonly splice: {
        readonly at: number;
        readonly remove: number;
        readonly insert: string;
      } | null;
    }
  /** An image's bytes (base64) are here: every image object whose `blob` is this hash shows them. */
  | {
      readonly type: 'image';
      readonly hash: string;
      readonly imageType: ImageType;
      readonly data: string;
    }
  /**
   * Bytes of an image on their way here so far (its objects show a placeholder with the progress), or (upload) of
   * this user's own image on its way to the host (total 0: it was refused).
   */
  | {
      readonly type: 'image-progress';
      readonly hash: string;
      readonly received: number;
      readonly total: number;
      readonly upload: boolean;
    }
  /**
   * files: the host's open board file (absent path: a board with no file, named Untitled or as the file it was
   * uploaded from) and whether the board changed since it was saved (or downloaded).
   */
  | {
      readonly type: 'file';
      readonly name: string;
      readonly path?: string;
      readonly dirty: boolean;
    }
  /** filesleft: the unsaved boards hosts left (newest first), on sync and when a session ends. */
  | { readonly type: 'recoveries'; readonly boards: readonly UnsavedBoard[] }
  /** filesleft: desktop: the board files opened or saved lately (the File menu's Open Recent), newest first. */
  | { readonly type: 'recent-files'; readonly paths: readonly string[] }
  /** filesleft: desktop: a board file the OS asked the app to open while it hosts none: the start screen offers it. */
  | { readonly type: 'open-board'; readonly path: string };

/** What the preload (Electron) or the web host client exposes as `window.ghostboard`. */
export interface GhostboardBridge {
  invoke(command: ApiCommand): Promise<ApiReply>;
  /** Returns a function that unsubscribes. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** filesleft: desktop: the native open dialog for a board file (undefined: cancelled). The web host has none. */
  chooseBoardFile?(): Promise<string | undefined>;
}

/** The IPC channel names (Electron) and the WebSocket path (web host). */
export const IPC_INVOKE = 'ghostboard:invoke';
export const IPC_EVENT = 'ghostboard:event';
export const WS_PATH = '/api';
/** filesleft: the desktop's IPC channel for the start screen's open dialog. */
export const IPC_CHOOSE_BOARD = 'ghostboard:choose-board';
