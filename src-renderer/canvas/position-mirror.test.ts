// Unit tests of the DOM mirror of canvas positions, against a minimal fake DOM (vitest runs without one):
// own pointer, remote pointers coming and going, objects at their board place, a live drag and its end.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiCommand, ApiEvent, ApiReply, GhostboardBridge } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { Controller } from '../controller/controller';
import { Store } from '../store/store';
import { PositionMirror } from './position-mirror';

class FakeEl {
  readonly dataset: Record<string, string> = {};
  children: FakeEl[] = [];
  parent: FakeEl | null = null;
  append(c: FakeEl): void {
    c.parent = this;
    this.children.push(c);
  }
  replaceChildren(): void {
    this.children = [];
  }
  remove(): void {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
  }
}

/** What the mirror shows: testid → "x,y". */
function shown(root: FakeEl): Record<string, string> {
  return Object.fromEntries(
    root.children.map((c) => [c.dataset.testid ?? '?', `${c.dataset.x},${c.dataset.y}`]),
  );
}

function rect(id: number, x: number, y: number): BoardObject {
  return {
    id,
    kind: 'rect',
    x,
    y,
    w: 10,
    h: 10,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
    z: id,
    lockedBy: null,
    pinned: 0,
  };
}

function setup() {
  const listeners = new Set<(e: ApiEvent) => void>();
  const grabs: ((r: ApiReply) => void)[] = [];
  const bridge: GhostboardBridge = {
    invoke: (c: ApiCommand) =>
      c.cmd === 'grab'
        ? new Promise<ApiReply>((r) => grabs.push(r))
        : Promise.resolve({ ok: true }),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  const controller = new Controller(bridge, new Store());
  controller.attach();
  emit({
    type: 'status',
    status: { phase: 'hosting', name: 'a', addresses: [], port: 1, code: 'abcd', you: 0 },
  });
  const mirror = new PositionMirror(controller);
  const root = new FakeEl();
  mirror.attach(root as unknown as HTMLElement);
  controller.onLocal(mirror.local);
  return { controller, mirror, root, emit, grabs };
}

const realDocument = globalThis.document;
beforeEach(() => {
  globalThis.document = { createElement: () => new FakeEl() } as unknown as Document;
});
afterEach(() => {
  globalThis.document = realDocument;
});

describe('PositionMirror', () => {
  it('shows its own pointer (as sent, rounded) at once, and hides it off the board', () => {
    const { controller, root } = setup();
    controller.pointerMoved(10.4, 20.6);
    expect(shown(root)).toEqual({ 'local-pointer': '10,21' });
    controller.pointerLeft();
    expect(shown(root)).toEqual({});
  });

  it('mirrors remote pointers per frame, rounded, and drops those gone', () => {
    const { mirror, root } = setup();
    mirror.frame({ pointers: [{ peer: 3, x: 1.6, y: 2.2, tool: 'select' }], drags: [] });
    expect(shown(root)).toEqual({ 'remote-pointer-3': '2,2' });
    mirror.frame({ pointers: [], drags: [] });
    expect(shown(root)).toEqual({});
  });

  it('shows objects where the board has them, and at the ghost while someone drags one', () => {
    const { mirror, root, emit } = setup();
    emit({ type: 'board', objects: [rect(1, 5, 5), rect(2, 50, 50)] });
    mirror.frame({ pointers: [], drags: [] });
    expect(shown(root)).toEqual({ 'object-1': '5,5', 'object-2': '50,50' });
    mirror.frame({ pointers: [], drags: [{ peer: 3, id: 2, x: 70, y: 80, dropped: false }] });
    expect(shown(root)['object-2']).toBe('70,80');
    mirror.frame({ pointers: [], drags: [] });
    expect(shown(root)['object-2']).toBe('50,50');
    emit({ type: 'objects', upserts: [], deletes: [1] });
    mirror.frame({ pointers: [], drags: [] });
    expect(shown(root)).toEqual({ 'object-2': '50,50' });
  });

  it('shows the stacking order of each object as data-z, following a restack', () => {
    const { mirror, root, emit } = setup();
    emit({ type: 'board', objects: [rect(1, 5, 5), rect(2, 50, 50)] });
    mirror.frame({ pointers: [], drags: [] });
    const zs = (): (string | undefined)[] => root.children.map((c) => c.dataset.z);
    expect(zs()).toEqual(['1', '2']);
    emit({ type: 'objects', upserts: [{ ...rect(1, 5, 5), z: -3 }], deletes: [] });
    mirror.frame({ pointers: [], drags: [] });
    expect(zs()).toEqual(['-3', '2']);
  });

  it('follows its own drag between frames and keeps the predicted drop', async () => {
    const { controller, root, emit, grabs } = setup();
    emit({ type: 'board', objects: [rect(1, 5, 5)] });
    controller.startDrag(1, () => undefined);
    controller.moveDrag(1, 30, 40);
    expect(shown(root)['object-1']).toBe('30,40');
    grabs.shift()?.({ ok: true });
    await Promise.resolve();
    controller.endDrag(1, 60, 70);
    expect(controller.localDrags()).toEqual([]);
    expect(shown(root)['object-1']).toBe('60,70');
  });

  it("shows a ghost's live size and rotation while someone resizes or rotates it, then the board's", () => {
    const { mirror, root, emit } = setup();
    emit({ type: 'board', objects: [rect(2, 50, 50)] });
    const sized = (): string[] => {
      const el = root.children.find((c) => c.dataset.testid === 'object-2');
      return [el?.dataset.w, el?.dataset.h, el?.dataset.rotation].map(String);
    };
    mirror.frame({ pointers: [], drags: [] });
    expect(sized()).toEqual(['10', '10', '0']);
    mirror.frame({
      pointers: [],
      drags: [
        {
          peer: 3,
          id: 2,
          x: 40,
          y: 45,
          dropped: false,
          shape: { w: 30.4, h: 21, rotation: 449.6 },
        },
      ],
    });
    expect(shown(root)['object-2']).toBe('40,45');
    expect(sized()).toEqual(['30', '21', '450']);
    mirror.frame({ pointers: [], drags: [] });
    expect(sized()).toEqual(['10', '10', '0']);
  });
});
