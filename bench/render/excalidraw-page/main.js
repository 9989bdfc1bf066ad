// The renderer benchmark's Excalidraw page (built at bench time in a temporary directory with Excalidraw
// installed there; see ../excalidraw.ts): the same seeded board as Ghostboard's, converted to Excalidraw
// elements (notes as a filled rectangle with its text over it), whole board in view, and ?pointers=P
// collaborators' pointers moved at 60 Hz as Ghostboard's dev bridge moves its remote pointers.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Excalidraw, restoreElements } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import { largeBoard, wanderingPointers } from '@gb/fake-large';

window.EXCALIDRAW_ASSET_PATH = '/';
const q = new URLSearchParams(location.search);
const n = Number(q.get('objects') ?? 1000);
const seed = Number(q.get('seed') ?? 1);
const pointers = Number(q.get('pointers') ?? 0);
const css = (c) => (c === null ? 'transparent' : `#${c.toString(16).padStart(6, '0')}`);

function toElements(o) {
  const common = {
    id: `o-${o.id}`,
    x: o.x,
    y: o.y,
    width: o.w,
    height: o.h,
    strokeColor: css(o.stroke ?? 0x1e1e1e),
    backgroundColor: css(o.fill),
    fillStyle: 'solid',
    strokeWidth: o.strokeWidth || 1,
  };
  switch (o.kind) {
    case 'stroke': {
      const points = [];
      for (let i = 0; i + 1 < o.points.length; i += 2) points.push([o.points[i], o.points[i + 1]]);
      return [{ ...common, type: 'freedraw', points, pressures: [], simulatePressure: true }];
    }
    case 'text':
      return [{ ...common, type: 'text', text: o.text, fontSize: 16, originalText: o.text }];
    case 'note':
      return [
        { ...common, type: 'rectangle', strokeColor: 'transparent', roundness: { type: 3 } },
        {
          ...common,
          id: `t-${o.id}`,
          type: 'text',
          x: o.x + 12,
          y: o.y + 12,
          width: o.w - 24,
          height: 40,
          text: o.text,
          originalText: o.text,
          fontSize: 16,
          strokeColor: '#1e1e1e',
          backgroundColor: 'transparent',
        },
      ];
    default:
      return [{ ...common, type: o.kind === 'ellipse' ? 'ellipse' : 'rectangle' }];
  }
}

const elements = restoreElements(largeBoard(n, seed).flatMap(toElements), null);
window.__bench = { ready: false, api: null };

function onApi(api) {
  if (window.__bench.api) return;
  window.__bench.api = api;
  setTimeout(() => {
    api.scrollToContent(api.getSceneElements(), { fitToContent: true });
    window.__bench.ready = true;
    if (pointers > 0) {
      const t0 = performance.now();
      setInterval(() => {
        const t = (performance.now() - t0) / 1000;
        const collaborators = new Map(
          wanderingPointers(t, pointers, n).map((p) => [
            `peer-${p.peer}`,
            {
              username: `Peer ${p.peer}`,
              pointer: { x: p.x, y: p.y, tool: 'pointer' },
              color: { background: '#e8590c', stroke: '#e8590c' },
            },
          ]),
        );
        api.updateScene({ collaborators });
      }, 1000 / 60);
    }
  }, 0);
}

createRoot(document.getElementById('root')).render(
  createElement(Excalidraw, { initialData: { elements }, excalidrawAPI: onApi }),
);
