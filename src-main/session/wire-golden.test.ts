// Golden bytes of the whiteboard's wire records: every RPC's params and every ghost group, for a few fixed
// values, exactly as today's code encodes them. A refactor of how the records are declared must keep them.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import { MAX_OBJECT_ID, WORLD_EXTENT } from '../../shared/board';
import { BitReader, BitWriter } from '../net/bitstream';
import type { Schema } from '../net/stream/params';
import { readParams, writeParams } from '../net/stream/params';
import { StringTable } from '../net/stream/strings';
import type { BoardGhost, PresenceState } from './ghost-classes';
import { BoardItem, changedGroups, Presence } from './ghost-classes';
import { buildRegistry, EDIT_FIELDS } from './protocol';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Params as a fresh connection writes them (table strings go inline), then read back. */
function rpcBytes(schema: Schema, params: Readonly<Record<string, unknown>>): string {
  const w = new BitWriter();
  writeParams(w, schema, params, new StringTable());
  const bytes = w.finish();
  const back = readParams(new BitReader(bytes), schema, new StringTable());
  expect(back).toEqual(params);
  return `${w.bitLength}:${hex(bytes)}`;
}

const OBJECTS: readonly BoardObject[] = [
  {
    id: 1,
    kind: 'rect',
    x: 10,
    y: -20,
    w: 100,
    h: 50,
    rotation: 0,
    stroke: 0x222222,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    z: 1,
    lockedBy: null,
    pinned: 0,
    blob: '',
  },
  {
    id: 4242,
    kind: 'note',
    x: -WORLD_EXTENT,
    y: WORLD_EXTENT,
    w: 0,
    h: 1_000_000,
    rotation: 3599,
    stroke: null,
    fill: 0xffee88,
    strokeWidth: 64,
    text: 'héllo 👋 note',
    points: [],
    z: -7,
    lockedBy: 0,
    pinned: 0,
    blob: '',
  },
  {
    id: MAX_OBJECT_ID,
    kind: 'stroke',
    x: 12345,
    y: 678,
    w: 30,
    h: 40,
    rotation: 900,
    stroke: 0x000000,
    fill: 0xffffff,
    strokeWidth: 1,
    text: 'label',
    points: [0, 0, 5, -5, 32767, -32767],
    z: 2 ** 40,
    lockedBy: 1023,
    pinned: 1,
    blob: '0123456789abcdef'.repeat(4),
  },
];

function ghostGroups(o: BoardObject): string[] {
  return BoardItem.groups.map((g) => {
    const w = new BitWriter();
    g.pack(w, { o });
    const bytes = w.finish();
    const back = BoardItem.createGhost();
    g.unpack(new BitReader(bytes), back);
    return `${g.name} ${w.bitLength}:${hex(bytes)}`;
  });
}

function ghostCreate(o: BoardObject): BoardGhost {
  const w = new BitWriter();
  for (const g of BoardItem.groups) g.pack(w, { o });
  const r = new BitReader(w.finish());
  const back = BoardItem.createGhost();
  for (const g of BoardItem.groups) g.unpack(r, back);
  return back;
}

describe('wire golden bytes', () => {
  it('every RPC keeps its id, delivery and params', () => {
    const p = buildRegistry();
    const defs = Object.entries(p)
      .filter(([k]) => k !== 'registry')
      .map(([k, d]) => {
        const def = d as {
          id: number;
          policy: string;
          channel: number;
          priority: number;
          urgent: boolean;
          copies: number;
          params: Schema;
        };
        return `${def.id} ${k} ${def.policy} ch${def.channel} p${def.priority} u${def.urgent} c${def.copies} [${Object.keys(def.params).join(',')}]`;
      });
    expect(defs).toMatchInlineSnapshot(`
      [
        "0 hello reliableOrdered ch0 p5 ufalse c1 [name,viewer]",
        "1 welcome reliableOrdered ch0 p5 ufalse c1 [you,objects,hostName]",
        "2 peerJoined reliableOrdered ch0 p2 ufalse c1 [peer,name,color,viewer]",
        "3 peerLeft reliableOrdered ch0 p2 ufalse c1 [peer,reason,detail]",
        "4 refused reliableOrdered ch0 p4 ufalse c1 [cmd,reason,id]",
        "5 viewport reliableSequenced ch0 p3 ufalse c1 [x,y,w,h]",
        "6 create reliableOrdered ch1 p4 ufalse c1 [req,kind,x,y,w,h,rotation,stroke,fill,strokeWidth,text,points,blob]",
        "7 created reliableOrdered ch1 p4 ufalse c1 [req,id]",
        "8 edit reliableOrdered ch1 p4 ufalse c1 [id,mask,x,y,w,h,rotation,stroke,fill,strokeWidth]",
        "9 remove reliableOrdered ch1 p4 ufalse c1 [id]",
        "10 restack reliableOrdered ch1 p4 ufalse c1 [id,front,z]",
        "11 setPoints reliableOrdered ch1 p4 ufalse c1 [id,points]",
        "12 text reliableOrdered ch2 p4 ufalse c2 [id,at,remove,insert]",
        "13 grab quickest ch1 p7 utrue c1 [id]",
        "14 drop quickest ch1 p7 utrue c1 [id,x,y]",
        "15 grabbed quickest ch1 p7 utrue c1 [id,peer]",
        "16 dropped quickest ch1 p7 utrue c1 [id,peer,x,y]",
        "17 chat reliableOrdered ch3 p1 ufalse c2 [text]",
        "18 chatFrom reliableOrdered ch3 p1 ufalse c2 [peer,text]",
        "19 restore reliableOrdered ch1 p4 ufalse c1 [id]",
        "20 pin reliableOrdered ch1 p4 ufalse c1 [id,pinned]",
        "21 textOpen reliableOrdered ch2 p4 ufalse c1 [id]",
        "22 textSync reliableOrdered ch2 p4 ufalse c1 [id,text]",
        "23 textEdit reliableOrdered ch2 p4 ufalse c2 [id,seen,at,remove,insert]",
        "24 textSplice reliableOrdered ch2 p4 ufalse c2 [id,seen,by,at,remove,insert]",
        "25 textAck reliableOrdered ch2 p3 ufalse c1 [id,seen]",
        "26 textClose reliableOrdered ch2 p4 ufalse c1 [id]",
        "27 blobStart reliableOrdered ch4 p1 ufalse c1 [tid,hash,size,type]",
        "28 blobChunk reliableOrdered ch4 p0 ufalse c1 [tid,offset,data]",
        "29 blobAck reliableOrdered ch4 p1 ufalse c1 [tid,received]",
        "30 blobEnd reliableOrdered ch4 p1 ufalse c1 [tid,end,reason]",
        "31 blobWant reliableOrdered ch4 p1 ufalse c1 [hash]",
        "32 hosts reliableOrdered ch0 p2 ufalse c1 [hosts]",
      ]
    `);
    expect(p.registry.idBits).toMatchInlineSnapshot(`6`);
    expect(EDIT_FIELDS).toMatchInlineSnapshot(`
      [
        "x",
        "y",
        "w",
        "h",
        "rotation",
        "stroke",
        "fill",
        "strokeWidth",
      ]
    `);
  });

  it('RPC params encode to the same bits', () => {
    const p = buildRegistry();
    const out: Record<string, string[]> = {};
    const add = (name: string, schema: Schema, params: Record<string, unknown>): void => {
      (out[name] ??= []).push(rpcBytes(schema, params));
    };
    add('hello', p.hello.params, { name: 'Ada', viewer: false });
    add('hello', p.hello.params, { name: 'Ünïcode 名前', viewer: true });
    add('welcome', p.welcome.params, { you: 3, objects: 20_000, hostName: 'Host' });
    add('peerJoined', p.peerJoined.params, {
      peer: 1023,
      name: 'Bob',
      color: 0xe6194b,
      viewer: true,
    });
    add('peerLeft', p.peerLeft.params, { peer: 2, reason: 1, detail: 'timed out' });
    add('refused', p.refused.params, { cmd: 5, reason: 'held by Ada', id: 7 });
    add('refused', p.refused.params, {
      cmd: 10,
      reason: 'object 7 is not yours to restore',
      id: 7,
    });
    add('viewport', p.viewport.params, { x: -500, y: 250, w: 1280, h: 800 });
    for (const o of OBJECTS) {
      const fields = Object.fromEntries(
        Object.entries(o).filter(([k]) => !['id', 'z', 'lockedBy', 'pinned'].includes(k)),
      );
      add('create', p.create.params, { req: 65535, ...fields, points: [...o.points] });
      add('edit', p.edit.params, {
        id: o.id,
        mask: 0b10100101,
        x: o.x,
        y: o.y,
        w: o.w,
        h: o.h,
        rotation: o.rotation,
        stroke: o.stroke,
        fill: o.fill,
        strokeWidth: o.strokeWidth,
      });
      add('setPoints', p.setPoints.params, { id: o.id, points: [...o.points] });
      add('dropped', p.dropped.params, { id: o.id, peer: 0, x: o.x, y: o.y });
    }
    add('created', p.created.params, { req: 7, id: 4242 });
    add('remove', p.remove.params, { id: 99 });
    add('restore', p.restore.params, { id: MAX_OBJECT_ID });
    add('pin', p.pin.params, { id: MAX_OBJECT_ID, pinned: true });
    add('pin', p.pin.params, { id: 1, pinned: false });
    add('refused', p.refused.params, { cmd: 11, reason: 'it is locked: unlock it first', id: 12 });
    // images
    const hash = '0123456789abcdef'.repeat(4);
    add('blobStart', p.blobStart.params, { tid: 65535, hash, size: 2 * 1024 * 1024, type: 2 });
    add('blobChunk', p.blobChunk.params, {
      tid: 7,
      offset: 1024,
      data: Uint8Array.from([0, 1, 2, 0xfe, 0xff]),
    });
    add('blobAck', p.blobAck.params, { tid: 0, received: 4096 });
    add('blobEnd', p.blobEnd.params, { tid: 3, end: 1, reason: "the board's image space is full" });
    add('blobWant', p.blobWant.params, { hash });
    add('hosts', p.hosts.params, {
      hosts: [
        { address: '10.0.0.1', port: 7350 },
        { address: '2001:db8::1', port: 7351 },
      ],
    });
    add('refused', p.refused.params, { cmd: 12, reason: 'image too large', id: 0 });
    add('restack', p.restack.params, { id: 99, front: false, z: null });
    add('restack', p.restack.params, { id: 99, front: false, z: -3 });
    add('text', p.text.params, { id: 5, at: 3, remove: 1, insert: 'xyz' });
    // textot: co-editing. A keystroke is a textEdit up and a textSplice down (compare `text`, one key: 'x').
    add('text', p.text.params, { id: 5, at: 3, remove: 0, insert: 'x' });
    add('textOpen', p.textOpen.params, { id: 5 });
    add('textSync', p.textSync.params, { id: 5, text: 'start 😀' });
    add('textEdit', p.textEdit.params, { id: 5, seen: 1023, at: 3, remove: 0, insert: 'x' });
    add('textSplice', p.textSplice.params, {
      id: 5,
      seen: 7,
      by: 3,
      at: 3,
      remove: 1,
      insert: 'x',
    });
    add('textAck', p.textAck.params, { id: 5, seen: 12 });
    add('textClose', p.textClose.params, { id: MAX_OBJECT_ID });
    add('grab', p.grab.params, { id: MAX_OBJECT_ID });
    add('drop', p.drop.params, { id: 1, x: 0, y: -1 });
    add('grabbed', p.grabbed.params, { id: 1, peer: 1 });
    add('chat', p.chat.params, { text: 'hello, world' });
    add('chatFrom', p.chatFrom.params, { peer: 4, text: 'hi' });
    expect(out).toMatchInlineSnapshot(`
      {
        "blobAck": [
          "36:0000084220",
        ],
        "blobChunk": [
          "76:00070850a000102feff0",
        ],
        "blobEnd": [
          "175:00037f13c4c6b629c37a812d2b0c52e2a8c250577ca4",
        ],
        "blobStart": [
          "305:ffff8091a2b3c4d5e6f78091a2b3c4d5e6f78091a2b3c4d5e6f78091a2b3c4d5e6f78421084900",
        ],
        "blobWant": [
          "257:8091a2b3c4d5e6f78091a2b3c4d5e6f78091a2b3c4d5e6f78091a2b3c4d5e6f780",
        ],
        "chat": [
          "64:e227293641834e50",
        ],
        "chatFrom": [
          "27:00492280",
        ],
        "create": [
          "164:ffff0f42453d08d8000c8000640012222220200000",
          "284:ffffc000007a120000001e8481c1efff744408451fdafe04a4c3fc5f6df51f44159cc000",
          "575:ffff8f5a5cbd0e4c0003c00050709000000ffffff81aa45ace4037fff7fff8400017ffedffea001a02468acf13579bde02468acf13579bde02468acf13579bde02468acf13579bde",
        ],
        "created": [
          "40:0007001091",
        ],
        "drop": [
          "68:0000007a1201e847f0",
        ],
        "dropped": [
          "80:0000000007a1229e846c",
          "80:001091000000003d0900",
          "80:fffffe0007ad2e5e8726",
        ],
        "edit": [
          "161:000000a57a1229e846c00064000320009111110100",
          "161:001091a5000003d090000000f4240e0f7ffba22000",
          "185:fffffea57ad2e5e87260001e000283848000007fffffc080",
        ],
        "grab": [
          "24:fffffe",
        ],
        "grabbed": [
          "36:0000000010",
        ],
        "hello": [
          "23:9b4408",
          "140:0458738dd875ec6dec8ca41cb211bcb131b0",
        ],
        "hosts": [
          "199:102800000472da40021b70000000000000000000000002396e",
        ],
        "peerJoined": [
          "75:3ff80337b4daf98652e0",
        ],
        "peerLeft": [
          "60:0027274b4e01af70",
        ],
        "pin": [
          "25:fffffe80",
          "25:00000000",
        ],
        "refused": [
          "88:5da27280d788d102000007",
          "186:a848dafd07538ee04a056718b5f3a076133a3b4cc00001c0",
          "175:bec48e12824d56c3877c5eb26ab604715a4e8e000018",
          "100:cf92d2b0c3b30914ec30000000",
        ],
        "remove": [
          "24:000062",
        ],
        "restack": [
          "26:00006200",
          "31:00006254",
        ],
        "restore": [
          "24:fffffe",
        ],
        "setPoints": [
          "33:0000000000",
          "33:0010910000",
          "139:fffffe01bfffbfffc20000bfff6fff5000c0",
        ],
        "text": [
          "64:000004308678797a",
          "48:000004300278",
        ],
        "textAck": [
          "34:0000040300",
        ],
        "textClose": [
          "24:fffffe",
        ],
        "textEdit": [
          "58:000004ffcc009e00",
        ],
        "textOpen": [
          "24:000004",
        ],
        "textSplice": [
          "70:00000401c00cc209e0",
        ],
        "textSync": [
          "104:000004d28e5371fe2fb6faff97",
        ],
        "viewport": [
          "84:7a0a31e857a00500003200",
        ],
        "welcome": [
          "70:003097a8803473351c",
        ],
      }
    `);
  });

  it('board object ghost groups encode to the same bits', () => {
    expect(BoardItem.groups.map((g) => g.name)).toMatchInlineSnapshot(`
      [
        "ident",
        "pos",
        "size",
        "style",
        "text",
        "points",
        "z",
        "lock",
        "pin",
      ]
    `);
    expect([BoardItem.allMask, BoardItem.urgentMask, BoardItem.maskBits]).toMatchInlineSnapshot(`
      [
        511,
        0,
        9,
      ]
    `);
    expect(OBJECTS.map(ghostGroups)).toMatchInlineSnapshot(`
      [
        [
          "ident 28:00000000",
          "pos 44:7a1229e846c0",
          "size 52:00064000320000",
          "style 33:9111110100",
          "text 6:00",
          "points 9:0000",
          "z 5:20",
          "lock 1:00",
          "pin 1:00",
        ],
        [
          "ident 28:001091c0",
          "pos 44:000003d09000",
          "size 52:00000f4240e0f0",
          "style 33:7ffba22000",
          "text 126:8451fdafe04a4c3fc5f6df51f44159cc",
          "points 9:0000",
          "z 5:d0",
          "lock 13:8000",
          "pin 1:00",
        ],
        [
          "ident 284:fffffe90123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
          "pos 44:7ad2e5e87260",
          "size 52:0001e000283840",
          "style 57:8000007fffffc080",
          "text 31:aa45ace4",
          "points 115:01bfffbfffc20000bfff6fff5000c0",
          "z 55:08421084210848",
          "lock 13:9ff8",
          "pin 1:80",
        ],
      ]
    `);
    for (const o of OBJECTS) expect(ghostCreate(o)).toEqual(o);
  });

  it('changed groups name the same bits', () => {
    const [a, b] = OBJECTS;
    if (a === undefined || b === undefined) throw new Error('fixtures');
    const masks = (Object.keys(a) as (keyof BoardObject)[]).map(
      (k) => `${k}:${changedGroups(a, { ...a, [k]: b[k] })}`,
    );
    expect(masks).toMatchInlineSnapshot(`
      [
        "id:0",
        "kind:0",
        "x:2",
        "y:2",
        "w:4",
        "h:4",
        "rotation:4",
        "stroke:8",
        "fill:8",
        "strokeWidth:8",
        "text:16",
        "points:0",
        "z:64",
        "lockedBy:128",
        "pinned:0",
        "blob:0",
      ]
    `);
  });

  it('presence ghost groups encode to the same bits', () => {
    const unshaped = { dragShaped: false, dragW: 0, dragH: 0, dragRotation: 0 };
    const states: PresenceState[] = [
      { peer: 0, x: 0, y: 0, visible: false, tool: 0, dragId: 0, dragX: 0, dragY: 0, ...unshaped },
      {
        peer: 7,
        x: 8191,
        y: -8192,
        visible: true,
        tool: 3,
        dragId: 12,
        dragX: -20,
        dragY: 9000,
        ...unshaped,
      },
      {
        peer: 1023,
        x: WORLD_EXTENT,
        y: -WORLD_EXTENT,
        visible: true,
        tool: 1,
        dragId: MAX_OBJECT_ID,
        dragX: 1,
        dragY: -1,
        ...unshaped,
      },
      // liveresize: a live resize or rotate carries the size and rotation after the drag's place.
      {
        peer: 3,
        x: 10,
        y: 20,
        visible: true,
        tool: 0,
        dragId: 5,
        dragX: 100,
        dragY: -50,
        dragShaped: true,
        dragW: 240,
        dragH: 5000,
        dragRotation: 3599,
      },
    ];
    expect(Presence.groups.map((g) => g.name)).toMatchInlineSnapshot(`
      [
        "peer",
        "pointer",
        "tool",
        "drag",
      ]
    `);
    const out = states.map((s) =>
      Presence.groups.map((g) => {
        const w = new BitWriter();
        g.pack(w, s);
        const bytes = w.finish();
        const back = Presence.createGhost();
        g.unpack(new BitReader(bytes), back);
        return `${g.name} ${w.bitLength}:${hex(bytes)}`;
      }),
    );
    expect(out).toMatchInlineSnapshot(`
      [
        [
          "peer 12:0000",
          "pointer 31:6000c000",
          "tool 3:00",
          "drag 1:00",
        ],
        [
          "peer 12:0070",
          "pointer 31:ffff8000",
          "tool 3:60",
          "drag 64:800005dfec3d4f50",
        ],
        [
          "peer 12:3ff0",
          "pointer 47:bd0900000000",
          "tool 3:20",
          "drag 56:ffffff6001bffe",
        ],
        [
          "peer 12:0030",
          "pointer 31:e00ac028",
          "tool 3:00",
          "drag 102:8000026064bf9d878004e2383c",
        ],
      ]
    `);
  });
});
