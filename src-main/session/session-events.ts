// What a session reports to whoever runs it (CLI script mode, the app core, tests). Plain data; knows nothing
// of the network below or of the UI above.
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import type { LiveShape, Tool } from '../../shared/api';
import type { OtSplice } from '../../shared/text-ot';
import type { ImageType } from '../../shared/images';
import type { LeaveReason, RefusableCommand, Role } from './protocol';
import type { PeerAddress } from '../net/address';

export interface ParticipantInfo {
  readonly peer: PeerId;
  readonly name: string;
  readonly color: number;
  readonly role: Role;
  readonly isHost: boolean;
}

export interface PointerInfo {
  readonly peer: PeerId;
  readonly x: number;
  readonly y: number;
  readonly visible: boolean;
  readonly tool: Tool;
  readonly drag: {
    readonly id: ObjectId;
    readonly x: number;
    readonly y: number;
    readonly shape?: LiveShape;
  } | null;
}

export type SessionEvent =
  /** Hosting: the socket is bound. Joining: welcomed by the host. */
  | {
      readonly type: 'ready';
      readonly you: PeerId;
      readonly address: string;
      readonly port: number;
      readonly code?: string;
    }
  | { readonly type: 'joined'; readonly participant: ParticipantInfo }
  | {
      readonly type: 'left';
      readonly peer: PeerId;
      readonly reason: LeaveReason;
      readonly detail: string;
    }
  /** This side's session ended (peer: host left, kicked, timed out; either side: rejected before joining). */
  | { readonly type: 'ended'; readonly reason: string; readonly detail: string }
  /** A presence update: `moved` when it carried the pointer position (not only a tool or drag change). */
  | { readonly type: 'pointer'; readonly pointer: PointerInfo; readonly moved: boolean }
  | { readonly type: 'chat'; readonly peer: PeerId; readonly text: string }
  | { readonly type: 'object'; readonly object: BoardObject }
  | { readonly type: 'deleted'; readonly id: ObjectId }
  | { readonly type: 'grabbed'; readonly id: ObjectId; readonly peer: PeerId }
  | {
      readonly type: 'dropped';
      readonly id: ObjectId;
      readonly peer: PeerId;
      readonly x: number;
      readonly y: number;
    }
  /** A command the host (or this side, first) refused; `id`: the object it named, when it named one. */
  | {
      readonly type: 'refused';
      readonly cmd: RefusableCommand;
      readonly reason: string;
      readonly id?: ObjectId;
    }
  | { readonly type: 'created'; readonly req: number; readonly id: ObjectId }
  /**
   * Hosting: the host removed a participant and refuses its address for the session; anyone else holding the
   * code can still join, so a new code (rotateCode) is worth offering.
   */
  | {
      readonly type: 'banned';
      readonly peer: PeerId;
      readonly name: string;
      readonly address: string;
    }
  /** Hosting: the join code changed (rotateCode); later joiners need this one. */
  | { readonly type: 'code'; readonly code: string }
  /**
   * Hosting: so many join attempts failed that the (short) code is locked: every join is refused until the host
   * sets a new code (rotateCode), which it should then give to the people it invites.
   */
  | { readonly type: 'code-locked'; readonly failures: number }
  /**
   * Joining: the session's hosts (mirrors) as the host now tells them, itself included: where to go if it dies.
   */
  | { readonly type: 'hosts'; readonly hosts: readonly PeerAddress[] }
  /** Joining: board objects received so far of those the host announced. */
  | { readonly type: 'progress'; readonly received: number; readonly total: number }
  /**
   * textot: a splice for this side's own editor of a text (null: an ack alone), by whom, made after `seen` of the
   * editor's splices.
   */
  | {
      readonly type: 'text-splice';
      readonly id: ObjectId;
      readonly seen: number;
      readonly by: PeerId;
      readonly splice: OtSplice | null;
    }
  /** An image's bytes are here (stored on the host, or received by a peer): every object with this hash shows it. */
  | {
      readonly type: 'image';
      readonly hash: string;
      readonly imageType: ImageType;
      readonly bytes: Uint8Array;
    }
  /**
   * Bytes of an image that arrived so far: a peer downloading, the host receiving an upload, or (upload) this
   * peer's own upload as the host acknowledges it (total 0: that upload ended without being kept).
   */
  | {
      readonly type: 'image-progress';
      readonly hash: string;
      readonly received: number;
      readonly total: number;
      readonly upload: boolean;
    };

export type SessionListener = (event: SessionEvent) => void;
