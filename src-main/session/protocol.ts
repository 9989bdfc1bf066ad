// The whiteboard's RPCs (DESIGN.md §5, after Table 1 of the groupware paper): each message's delivery policy,
// channel and priority, and its bit-packed params. Both ends build the registry the same way. Knows nothing of
// sockets or of how the host or a peer reacts to a call.
import type { BoardObject, EditField, ObjectId, ObjectPatch } from '../../shared/board';
import { EDIT_FIELDS, MAX_TEXT_BYTES, NEW_OBJECT_FIELDS } from '../../shared/board';
import type { ParamsOf } from '../net/stream/params';
import { bool, bytes, ranged, string, tableString, uint, varUint } from '../net/stream/params';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../shared/images';
import { BLOB_CHUNK_BYTES, BLOB_ENDS, MAX_TRANSFER_ID } from './blob-wire';
import { RpcRegistry } from '../net/stream/rpc';
import {
  contentHash,
  objectId,
  objectParams,
  optionalStackingOrder,
  peerId,
  size,
  worldCoord,
} from './fields';
import { SEEN_MODULUS } from '../../shared/text-ot';
import { hostList } from './host-list';

export { EDIT_FIELDS } from '../../shared/board';

/** Independent ordered channels: a lost chat line never holds up a drop. */
export const Channel = { session: 0, drawing: 1, text: 2, chat: 3, blobs: 4 } as const;

export const MAX_NAME_BYTES = 48;
export const MAX_CHAT_BYTES = 1000;
export const MAX_REASON_BYTES = 160;
/** Commands a refusal can name. */
export const REFUSABLE = [
  'create',
  'edit',
  'delete',
  'restack',
  'text',
  'grab',
  'drag',
  'drop',
  'chat',
  'join',
  'restore',
  'pin',
  'image',
] as const;
export type RefusableCommand = (typeof REFUSABLE)[number];
export const ROLES = ['editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const LEAVE_REASONS = ['left', 'timeout', 'kicked', 'error'] as const;
export type LeaveReason = (typeof LEAVE_REASONS)[number];

/** An edit call's params: every EDIT_FIELDS field, the mask saying which of them the edit changes. */
const editParams = {
  id: objectId(),
  mask: uint(EDIT_FIELDS.length),
  ...objectParams(EDIT_FIELDS),
};
export type EditParams = ParamsOf<typeof editParams>;

/**
 * The edit call for a patch of the object as it is now (fields the patch leaves are sent as they are, unmasked), or
 * undefined when the patch changes none of EDIT_FIELDS.
 */
export function editCall(
  id: ObjectId,
  current: BoardObject,
  patch: ObjectPatch,
): EditParams | undefined {
  const out: Record<string, unknown> = { id, mask: 0 };
  let mask = 0;
  EDIT_FIELDS.forEach((f, i) => {
    const v = patch[f];
    if (v !== undefined) mask |= 1 << i;
    out[f] = v !== undefined ? v : current[f];
  });
  out.mask = mask;
  return mask === 0 ? undefined : (out as EditParams);
}

/** The patch an edit call carries: the fields its mask names. */
export function editPatch(a: EditParams): Pick<ObjectPatch, EditField> {
  const out: Record<string, unknown> = {};
  EDIT_FIELDS.forEach((f, i) => {
    if ((a.mask >> i) & 1) out[f] = a[f];
  });
  return out;
}

/** textot: a splice's params (UTF-16 offsets; the host checks them against the text). */
const spliceParams = {
  at: varUint(MAX_TEXT_BYTES),
  remove: varUint(MAX_TEXT_BYTES),
  insert: string(MAX_TEXT_BYTES),
};
/** textot: bits of a link's `seen` count on the wire (SEEN_MODULUS = 2^SEEN_BITS). */
const SEEN_BITS = Math.log2(SEEN_MODULUS);

export function buildRegistry() {
  const r = new RpcRegistry();
  return {
    registry: r,
    // Session channel: who is here (reliable ordered, low priority).
    hello: r.register('hello', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 5,
      params: { name: string(MAX_NAME_BYTES), viewer: bool() },
    }),
    welcome: r.register('welcome', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 5,
      params: { you: peerId(), objects: varUint(), hostName: tableString(MAX_NAME_BYTES) },
    }),
    peerJoined: r.register('peerJoined', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 2,
      params: {
        peer: peerId(),
        name: tableString(MAX_NAME_BYTES),
        color: uint(24),
        viewer: bool(),
      },
    }),
    peerLeft: r.register('peerLeft', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 2,
      params: {
        peer: peerId(),
        reason: ranged(0, LEAVE_REASONS.length - 1),
        detail: string(MAX_REASON_BYTES),
      },
    }),
    refused: r.register('refused', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 4,
      // `id`: the object the refused command named (0 for none), so the sender takes back what it showed at once.
      params: {
        cmd: ranged(0, REFUSABLE.length - 1),
        reason: string(MAX_REASON_BYTES),
        id: uint(24),
      },
    }),
    // Where the peer looks: the host scopes and prioritizes board ghosts by it (only the newest matters).
    viewport: r.register('viewport', {
      policy: 'reliableSequenced',
      channel: Channel.session,
      priority: 3,
      params: { x: worldCoord(), y: worldCoord(), w: size(), h: size() },
    }),
    // Drawing channel: edits in order (reliable ordered, medium priority).
    create: r.register('create', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { req: uint(16), ...objectParams(NEW_OBJECT_FIELDS) },
    }),
    created: r.register('created', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { req: uint(16), id: objectId() },
    }),
    edit: r.register('edit', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: editParams,
    }),
    remove: r.register('remove', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { id: objectId() },
    }),
    restack: r.register('restack', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      // restack: an exact z (an undone restack) or null; `front` is then ignored.
      params: { id: objectId(), front: bool(), z: optionalStackingOrder() },
    }),
    setPoints: r.register('setPoints', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { id: objectId(), ...objectParams(['points']) },
    }),
    // Text channel: typing, one event per edit (a splice), in order; each in two packets (a keystroke is small,
    // and a lost one would hold up every later one for a loss detection).
    text: r.register('text', {
      policy: 'reliableOrdered',
      copies: 2,
      channel: Channel.text,
      priority: 4,
      params: {
        id: objectId(),
        at: varUint(MAX_TEXT_BYTES),
        remove: varUint(MAX_TEXT_BYTES),
        insert: string(MAX_TEXT_BYTES),
      },
    }),
    // Grab and drop: quickest (in every packet until acked), highest priority, sent at once.
    grab: r.register('grab', {
      policy: 'quickest',
      channel: Channel.drawing,
      priority: 7,
      urgent: true,
      params: { id: objectId() },
    }),
    drop: r.register('drop', {
      policy: 'quickest',
      channel: Channel.drawing,
      priority: 7,
      urgent: true,
      params: { id: objectId(), x: worldCoord(), y: worldCoord() },
    }),
    // Host to everyone: who holds what, and where it landed (the lock also shows in the object's ghost).
    grabbed: r.register('grabbed', {
      policy: 'quickest',
      channel: Channel.drawing,
      priority: 7,
      urgent: true,
      params: { id: objectId(), peer: peerId() },
    }),
    dropped: r.register('dropped', {
      policy: 'quickest',
      channel: Channel.drawing,
      priority: 7,
      urgent: true,
      params: { id: objectId(), peer: peerId(), x: worldCoord(), y: worldCoord() },
    }),
    // Chat channel: reliable ordered, low priority, each line in two packets (a lost packet then costs nothing
    // instead of a loss detection per hop); the host relays with the sender's id.
    chat: r.register('chat', {
      policy: 'reliableOrdered',
      copies: 2,
      channel: Channel.chat,
      priority: 1,
      params: { text: string(MAX_CHAT_BYTES) },
    }),
    chatFrom: r.register('chatFrom', {
      policy: 'reliableOrdered',
      copies: 2,
      channel: Channel.chat,
      priority: 1,
      params: { peer: peerId(), text: string(MAX_CHAT_BYTES) },
    }),
    // Undo of one's own delete (or redo of one's own create): the object back under its id, as the host had it
    // when it was deleted (the sender's copy may be a round trip old, and an id is all there is to forge). On the
    // drawing channel, so it keeps its place among the sender's other edits. Registered last: every other RPC
    // keeps its id.
    restore: r.register('restore', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { id: objectId() },
    }),
    // clipboard: lock an object in place or unlock it (its pinned field); on the drawing channel, in order with
    // the sender's other edits.
    pin: r.register('pin', {
      policy: 'reliableOrdered',
      channel: Channel.drawing,
      priority: 4,
      params: { id: objectId(), pinned: bool() },
    }),
    // textot: co-editing one text (Jupiter OT, session/host-text.ts and peer-text.ts). A peer opens a text it edits,
    // the host answers with the whole text once, then each side sends its splices, each with how many of the other
    // side's it had seen (modulo SEEN_MODULUS) and, host to peer, whose it is (the tie-break); acks when there is no
    // splice to carry one. All on the text channel, in order: the sync comes before any splice of the new link.
    textOpen: r.register('textOpen', {
      policy: 'reliableOrdered',
      channel: Channel.text,
      priority: 4,
      params: { id: objectId() },
    }),
    textSync: r.register('textSync', {
      policy: 'reliableOrdered',
      channel: Channel.text,
      priority: 4,
      params: { id: objectId(), text: string(MAX_TEXT_BYTES) },
    }),
    textEdit: r.register('textEdit', {
      policy: 'reliableOrdered',
      copies: 2,
      channel: Channel.text,
      priority: 4,
      params: { id: objectId(), seen: uint(SEEN_BITS), ...spliceParams },
    }),
    textSplice: r.register('textSplice', {
      policy: 'reliableOrdered',
      copies: 2,
      channel: Channel.text,
      priority: 4,
      params: { id: objectId(), seen: uint(SEEN_BITS), by: peerId(), ...spliceParams },
    }),
    textAck: r.register('textAck', {
      policy: 'reliableOrdered',
      channel: Channel.text,
      priority: 3,
      params: { id: objectId(), seen: uint(SEEN_BITS) },
    }),
    textClose: r.register('textClose', {
      policy: 'reliableOrdered',
      channel: Channel.text,
      priority: 4,
      params: { id: objectId() },
    }),
    // images: an image's bytes as a blob (a datablock, DESIGN.md §4), chunked over guaranteed events on a channel
    // of their own at the lowest priority, so a 2 MB image never holds up a pointer, a drag or a chat line. The
    // sender announces a transfer, the receiver answers with credit (acks) or an end, and the sender keeps at
    // most a window of chunks unacknowledged (blob-link.ts). Either side sends: a joiner uploads to the host, the
    // host sends a peer what the peer asks for (blobWant, on seeing an object whose image it lacks).
    blobStart: r.register('blobStart', {
      policy: 'reliableOrdered',
      channel: Channel.blobs,
      priority: 1,
      params: {
        tid: ranged(0, MAX_TRANSFER_ID),
        hash: contentHash(),
        size: varUint(MAX_IMAGE_BYTES),
        type: ranged(0, IMAGE_TYPES.length - 1),
      },
    }),
    blobChunk: r.register('blobChunk', {
      policy: 'reliableOrdered',
      channel: Channel.blobs,
      priority: 0,
      params: {
        tid: ranged(0, MAX_TRANSFER_ID),
        offset: varUint(MAX_IMAGE_BYTES),
        data: bytes(BLOB_CHUNK_BYTES),
      },
    }),
    blobAck: r.register('blobAck', {
      policy: 'reliableOrdered',
      channel: Channel.blobs,
      priority: 1,
      params: { tid: ranged(0, MAX_TRANSFER_ID), received: varUint(MAX_IMAGE_BYTES) },
    }),
    blobEnd: r.register('blobEnd', {
      policy: 'reliableOrdered',
      channel: Channel.blobs,
      priority: 1,
      params: {
        tid: ranged(0, MAX_TRANSFER_ID),
        end: ranged(0, BLOB_ENDS.length - 1),
        reason: string(MAX_REASON_BYTES),
      },
    }),
    blobWant: r.register('blobWant', {
      policy: 'reliableOrdered',
      channel: Channel.blobs,
      priority: 1,
      params: { hash: contentHash() },
    }),
    // mirrors: every host of the session (its mirrors, the sender included), as joiners reach them; sent when the
    // list changes and after each welcome, so a joiner whose host dies knows where else the session is. Registered
    // last: every other RPC keeps its id.
    hosts: r.register('hosts', {
      policy: 'reliableOrdered',
      channel: Channel.session,
      priority: 2,
      params: { hosts: hostList() },
    }),
  };
}

export type Protocol = ReturnType<typeof buildRegistry>;
