// Dev only (?fake=1): the starting board and the two simulated participants. Never used by the real app path.
import type { Participant } from '../../shared/api';
import type { BoardObject, NewObject } from '../../shared/board';

export const SELF = 1;
export const ADA = 2;
export const LINUS = 3;

export function fakeParticipants(selfName: string, joined: boolean): Participant[] {
  return [
    {
      id: SELF,
      name: selfName,
      color: 0x1971c2,
      role: 'editor',
      isHost: !joined,
      isSelf: true,
      rttMs: null,
      idleMs: 0,
    },
    {
      id: ADA,
      name: 'Ada',
      color: 0xe8590c,
      role: 'editor',
      isHost: joined,
      isSelf: false,
      rttMs: 38,
      idleMs: 0,
    },
    {
      id: LINUS,
      name: 'Linus',
      color: 0x2f9e44,
      role: 'viewer',
      isHost: false,
      isSelf: false,
      rttMs: 112,
      idleMs: 0,
    },
  ];
}

const shape = (
  o: Partial<NewObject> & Pick<NewObject, 'kind' | 'x' | 'y' | 'w' | 'h'>,
): NewObject => ({
  rotation: 0,
  stroke: 0x1e1e1e,
  fill: null,
  strokeWidth: 2,
  blob: '',
  text: '',
  points: [],
  ...o,
});

function wave(): number[] {
  const pts: number[] = [];
  for (let i = 0; i <= 40; i++) pts.push(i * 6, Math.round(30 + Math.sin(i / 4) * 26));
  return pts;
}

export function seedObjects(): NewObject[] {
  return [
    shape({ kind: 'rect', x: 120, y: 140, w: 220, h: 130, fill: 0xa5d8ff, stroke: 0x1971c2 }),
    shape({ kind: 'ellipse', x: 420, y: 150, w: 180, h: 120, fill: 0xb2f2bb, stroke: 0x2f9e44 }),
    shape({ kind: 'arrow', x: 340, y: 205, w: 80, h: 0, points: [0, 0, 80, 0], strokeWidth: 3 }),
    shape({
      kind: 'note',
      x: 700,
      y: 120,
      w: 200,
      h: 160,
      fill: 0xfff3bf,
      stroke: null,
      text: 'Ship the bandwidth panel\n\n— Ada',
    }),
    shape({ kind: 'text', x: 120, y: 60, w: 480, h: 40, text: 'Sprint board: networking demo' }),
    shape({
      kind: 'stroke',
      x: 140,
      y: 320,
      w: 240,
      h: 60,
      points: wave(),
      stroke: 0xe03131,
      strokeWidth: 4,
    }),
    shape({
      kind: 'line',
      x: 450,
      y: 330,
      w: 160,
      h: 50,
      points: [0, 50, 160, 0],
      stroke: 0x9c36b5,
    }),
    shape({
      kind: 'note',
      x: 700,
      y: 320,
      w: 200,
      h: 160,
      fill: 0xffc9c9,
      stroke: null,
      text: 'Loss at 10 %: pointers still glide?',
    }),
  ];
}

export function materialize(o: NewObject, id: number, z: number): BoardObject {
  return { ...o, id, z, lockedBy: null, pinned: 0 };
}
