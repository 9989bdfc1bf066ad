// The renderer's whole state as plain data, and the actions that change it. No framework, no DOM, no Konva.
import type {
  ApiEvent,
  ChatMessage,
  LanSessionInfo,
  UnsavedBoard,
  Participant,
  SessionStatus,
  Settings,
  StatsSnapshot,
  Tool,
} from '../../shared/api';
import type { BoardObject, NewObject, ObjectId, ObjectPatch } from '../../shared/board';
import type { Camera, Rect } from '../board/camera';
import { INITIAL_CAMERA } from '../board/camera';
import type { Style } from '../board/shapes';
import { EMPTY_HISTORY, type StatsHistory } from './stats-history';

export type Panel = 'chat' | 'bandwidth' | 'share' | 'presence' | 'export';
export type BridgeState = 'connecting' | 'open' | 'lost';
export type ToastLevel = 'info' | 'warn' | 'error';

export interface Toast {
  readonly id: number;
  readonly level: ToastLevel;
  readonly text: string;
}

/**
 * An object being created: drawn locally until the board has it (prediction), under the provisional id
 * `-key` (store/drafts.ts) until the host's id is known.
 */
export interface Draft {
  readonly key: number;
  readonly object: NewObject;
  readonly id: ObjectId | null;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface AppState {
  readonly status: SessionStatus;
  readonly board: ReadonlyMap<ObjectId, BoardObject>;
  readonly participants: readonly Participant[];
  readonly chat: readonly ChatMessage[];
  readonly unread: number;
  readonly stats: StatsSnapshot | null;
  readonly history: StatsHistory;
  readonly toasts: readonly Toast[];
  readonly nextToastId: number;
  readonly tool: Tool;
  /** The selected objects, in the order they were selected (any number: one is a special case). */
  readonly selection: readonly ObjectId[];
  /** The select tool's marquee while it is dragged (world units), or null. */
  readonly marquee: Rect | null;
  readonly style: Style;
  readonly camera: Camera;
  readonly panels: ReadonlySet<Panel>;
  /** Where this user dropped objects, shown until the host's upsert confirms or corrects it. */
  readonly moves: ReadonlyMap<ObjectId, Point>;
  /** This user's edits (resize, rotate) shown until the next upsert of that object. */
  readonly edits: ReadonlyMap<ObjectId, ObjectPatch>;
  readonly drafts: readonly Draft[];
  /**
   * Objects this user deleted, off `board` at once (prediction) until the host's delete arrives; a refusal puts
   * them back (as the board last had them).
   */
  readonly removed: ReadonlyMap<ObjectId, BoardObject>;
  /** Whether this user has a step to undo or redo (the core says). */
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** files: the host's open board file and whether it has unsaved changes (null: not hosting). */
  readonly file: { readonly name: string; readonly path?: string; readonly dirty: boolean } | null;
  /** The shape or stroke being drawn right now (the drawing tools' preview). */
  readonly preview: NewObject | null;
  /** The text or note being edited in the overlay: a provisional id (a draft) until the host confirms it. */
  readonly editing: ObjectId | null;
  /**
   * Which opening of the editor this is: a new number whenever another object opens, kept when a provisional id
   * becomes its real one (the same edit goes on, its box stays mounted and keeps what was typed).
   */
  readonly editKey: number;
  /** Objects others are dragging right now: the live layer draws them, the board hides the original. */
  readonly ghosted: ReadonlySet<ObjectId>;
  /** The bridge to the app core (only the web host's WebSocket can be lost). */
  readonly bridge: BridgeState;
  /** Sessions other hosts announce on this network (the start screen lists them). */
  readonly lan: readonly LanSessionInfo[];
  /** The settings in force, as the core last said. */
  readonly settings: Settings;
  /** A join link the desktop was asked to open, until the start screen takes it. */
  readonly openLink: string | null;
  /** The last session this user started: hosting or joining, and whether it got onto the board. */
  readonly lastSession: { readonly kind: 'host' | 'join'; readonly reached: boolean } | null;
  /** Images by content hash: their bytes as a data URL once here, or how much of them has arrived. */
  readonly images: ReadonlyMap<string, ImageEntry>;
  /** filesleft: unsaved boards a host left (the start screen offers them), newest first. */
  readonly recoveries: readonly UnsavedBoard[];
  /** filesleft: desktop: board files opened or saved lately, newest first. */
  readonly recentFiles: readonly string[];
  /** filesleft: desktop: a board file the OS asked to open while none is hosted, until the start screen takes it. */
  readonly openBoard: string | null;
}

/** An image's bytes as a data URL (drawn from an <img>: an SVG never runs script there), or its progress. */
export type ImageEntry =
  | { readonly url: string }
  /** upload: this user's own image on its way to the host (no object shows it yet). */
  | { readonly received: number; readonly total: number; readonly upload: boolean };

export type Action =
  | { readonly type: 'event'; readonly event: ApiEvent }
  | { readonly type: 'tool'; readonly tool: Tool }
  | { readonly type: 'select'; readonly ids: readonly ObjectId[] }
  | { readonly type: 'marquee'; readonly rect: Rect | null }
  | { readonly type: 'style'; readonly style: Partial<Style> }
  | { readonly type: 'camera'; readonly camera: Camera }
  | { readonly type: 'panel'; readonly panel: Panel; readonly open: boolean }
  | { readonly type: 'toast'; readonly level: ToastLevel; readonly text: string }
  | { readonly type: 'dismissToast'; readonly id: number }
  | { readonly type: 'moved'; readonly id: ObjectId; readonly x: number; readonly y: number }
  | { readonly type: 'moveUndone'; readonly id: ObjectId }
  | { readonly type: 'edited'; readonly id: ObjectId; readonly patch: ObjectPatch }
  | { readonly type: 'editUndone'; readonly id: ObjectId }
  | { readonly type: 'draft'; readonly key: number; readonly object: NewObject }
  | { readonly type: 'created'; readonly key: number; readonly id: ObjectId }
  | { readonly type: 'draftFailed'; readonly key: number }
  | { readonly type: 'removed'; readonly ids: readonly ObjectId[] }
  | { readonly type: 'preview'; readonly object: NewObject | null }
  | { readonly type: 'editing'; readonly id: ObjectId | null }
  | { readonly type: 'ghosted'; readonly ids: ReadonlySet<ObjectId> }
  | { readonly type: 'bridge'; readonly bridge: BridgeState }
  /** The start screen put the opened link in its join form. */
  | { readonly type: 'openLinkTaken' }
  /** filesleft: the start screen picked the board file the OS asked to open. */
  | { readonly type: 'openBoardTaken' };

export const DEFAULT_STYLE: Style = { stroke: 0x1e1e1e, fill: null, strokeWidth: 2 };

export const INITIAL_STATE: AppState = {
  status: { phase: 'idle' },
  board: new Map(),
  participants: [],
  chat: [],
  unread: 0,
  stats: null,
  history: EMPTY_HISTORY,
  toasts: [],
  nextToastId: 1,
  tool: 'select',
  selection: [],
  marquee: null,
  style: DEFAULT_STYLE,
  camera: INITIAL_CAMERA,
  panels: new Set(),
  moves: new Map(),
  edits: new Map(),
  drafts: [],
  removed: new Map(),
  canUndo: false,
  canRedo: false,
  file: null,
  preview: null,
  editing: null,
  editKey: 0,
  ghosted: new Set(),
  bridge: 'open',
  lan: [],
  settings: { directories: [] },
  openLink: null,
  lastSession: null,
  images: new Map(),
  recoveries: [],
  recentFiles: [],
  openBoard: null,
};
