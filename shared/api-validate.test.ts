import { describe, expect, it } from 'vitest';
import { parseCommand } from './api-validate';

const rect = {
  kind: 'rect',
  x: 0,
  y: 0,
  w: 10,
  h: 10,
  rotation: 0,
  stroke: 0,
  fill: null,
  strokeWidth: 2,
  text: '',
  points: [],
};

describe('parseCommand', () => {
  it('accepts well-formed commands', () => {
    expect(parseCommand({ cmd: 'host', options: { name: ' Ana ' } })).toEqual({
      cmd: 'host',
      options: { name: 'Ana' },
    });
    expect(parseCommand({ cmd: 'create', object: rect })).toEqual({ cmd: 'create', object: rect });
    expect(parseCommand({ cmd: 'rotate-code' })).toEqual({ cmd: 'rotate-code' });
    expect(parseCommand({ cmd: 'drag', id: 3, x: -5, y: 7 })).toEqual({
      cmd: 'drag',
      id: 3,
      x: -5,
      y: 7,
    });
    expect(parseCommand({ cmd: 'edit', id: 3, patch: { x: 4, fill: 0xff0000 } })).toEqual({
      cmd: 'edit',
      id: 3,
      patch: { x: 4, fill: 0xff0000 },
    });
    expect(
      parseCommand({ cmd: 'conditions', conditions: { lossPct: 5, delayMs: 40, kbps: 64 } }),
    ).toMatchObject({
      cmd: 'conditions',
    });
  });

  it('refuses malformed, extra, missing and out-of-range fields', () => {
    const bad: unknown[] = [
      null,
      'host',
      { cmd: 'nope' },
      { cmd: 'host', options: { name: '' } },
      { cmd: 'host', options: { name: 'x', evil: 1 } },
      { cmd: 'create', object: { ...rect, kind: 'hexagon' } },
      { cmd: 'create', object: { ...rect, x: 1e12 } },
      { cmd: 'create', object: { ...rect, extra: true } },
      { cmd: 'create', object: { ...rect, points: 'no' } },
      { cmd: 'create', object: (({ text: _t, ...rest }) => rest)(rect) },
      { cmd: 'edit', id: 0, patch: {} },
      { cmd: 'edit', id: 1, patch: { x: '3' } },
      { cmd: 'drag', id: 1, x: 1.5, y: 0 },
      { cmd: 'delete', ids: [1, -2] },
      { cmd: 'chat', text: 'x'.repeat(5000) },
      { cmd: 'chat', text: '   ' },
      { cmd: 'tool', tool: 'laser' },
      { cmd: 'conditions', conditions: { lossPct: 101, delayMs: 0, kbps: 0 } },
      { cmd: 'role', peer: 1, role: 'admin' },
    ];
    for (const b of bad) expect(parseCommand(b), JSON.stringify(b)).toHaveProperty('error');
  });
});
