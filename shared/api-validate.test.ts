import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_CHARS, MAX_PATH_CHARS } from './api';
import { MAX_IMAGE_BASE64, namesAPath, parseCommand, PATH_COMMANDS } from './api-validate';
import { newRect } from './testing/rect';

const rect = newRect({ w: 10, h: 10, stroke: 0 });

describe('parseCommand', () => {
  it('accepts well-formed commands', () => {
    expect(parseCommand({ cmd: 'host', options: { name: ' Ana ' } })).toEqual({
      cmd: 'host',
      options: { name: 'Ana' },
    });
    expect(parseCommand({ cmd: 'create', object: rect })).toEqual({ cmd: 'create', object: rect });
    expect(parseCommand({ cmd: 'create', object: rect, step: 2 ** 40 })).toEqual({
      cmd: 'create',
      object: rect,
      step: 2 ** 40,
    });
    expect(parseCommand({ cmd: 'pin', ids: [1, 2], pinned: true })).toEqual({
      cmd: 'pin',
      ids: [1, 2],
      pinned: true,
    });
    expect(parseCommand({ cmd: 'rotate-code' })).toEqual({ cmd: 'rotate-code' });
    expect(parseCommand({ cmd: 'export', format: 'svg', ids: [2, 3], transparent: true })).toEqual({
      cmd: 'export',
      format: 'svg',
      ids: [2, 3],
      transparent: true,
    });
    expect(parseCommand({ cmd: 'export', format: 'ghostboard' })).toEqual({
      cmd: 'export',
      format: 'ghostboard',
    });
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

  it('takes an image command only with PNG, JPEG or SVG bytes in base64, within the limit, and a place', () => {
    const ok = { cmd: 'image', type: 'image/png', data: 'iVBORw0=', x: -5, y: 6, w: 320, h: 200 };
    expect(parseCommand(ok)).toEqual(ok);
    expect(parseCommand({ ...ok, type: 'image/svg+xml' })).toMatchObject({ type: 'image/svg+xml' });
    const refused: [Record<string, unknown>, string][] = [
      [{ ...ok, type: 'text/html' }, 'an image is PNG, JPEG or SVG'],
      [{ ...ok, type: 'image/gif' }, 'an image is PNG, JPEG or SVG'],
      [{ ...ok, data: '<svg onload=alert(1)>' }, 'bad image data'],
      [{ ...ok, data: 'A'.repeat(MAX_IMAGE_BASE64 + 4) }, 'bad image data'],
      [{ ...ok, data: 7 }, 'bad image data'],
      [{ ...ok, w: 0 }, 'bad image place'],
      [{ ...ok, x: 1.5 }, 'bad image place'],
      [{ ...ok, blob: 'ab' }, 'unknown field in image'],
    ];
    for (const [c, error] of refused) expect(parseCommand(c), error).toEqual({ error });
    // The settings' image limits are bounded too.
    const settings = (s: Record<string, unknown>) =>
      parseCommand({ cmd: 'settings', settings: { directories: [], ...s } });
    expect(settings({ imageMaxSide: 1024, imageSpaceMb: 8 })).toMatchObject({
      settings: { imageMaxSide: 1024, imageSpaceMb: 8 },
    });
    expect(settings({ imageMaxSide: 10 })).toHaveProperty('error');
    expect(settings({ imageSpaceMb: 0 })).toHaveProperty('error');
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
      { cmd: 'reshape', id: 1, x: 0, y: 0, w: 10, h: 10, rotation: 3600 },
      { cmd: 'reshape', id: 1, x: 0, y: 0, w: -1, h: 10, rotation: 0 },
      { cmd: 'reshape', id: 1, x: 0, y: 0, w: 10, rotation: 0 },
      { cmd: 'delete', ids: [1, -2] },
      { cmd: 'create', object: rect, step: -1 },
      { cmd: 'create', object: rect, step: 1.5 },
      { cmd: 'create', object: rect, step: '1' },
      { cmd: 'pin', ids: [1], pinned: 1 },
      { cmd: 'pin', ids: [0], pinned: true },
      { cmd: 'pin', ids: 1, pinned: true },
      { cmd: 'pin', ids: Array(10_001).fill(1), pinned: false },
      { cmd: 'chat', text: 'x'.repeat(5000) },
      { cmd: 'chat', text: '   ' },
      { cmd: 'tool', tool: 'laser' },
      { cmd: 'conditions', conditions: { lossPct: 101, delayMs: 0, kbps: 0 } },
      { cmd: 'role', peer: 1, role: 'admin' },
      { cmd: 'export', format: 'pdf' },
      { cmd: 'export', format: 'svg', ids: [0] },
      { cmd: 'export', format: 'svg', transparent: 'yes' },
    ];
    for (const b of bad) expect(parseCommand(b), JSON.stringify(b)).toHaveProperty('error');
  });

  it('refuses an unknown field on every command', () => {
    const good: Record<string, unknown>[] = [
      { cmd: 'host', options: { name: 'Ana' } },
      { cmd: 'join', options: { name: 'Ana', address: '127.0.0.1:5000', code: 'abcd' } },
      { cmd: 'leave' },
      { cmd: 'create', object: rect },
      { cmd: 'edit', id: 1, patch: { x: 4 } },
      { cmd: 'text', id: 1, at: 0, remove: 0, insert: 'a' },
      { cmd: 'delete', ids: [1] },
      { cmd: 'restack', id: 1, front: true },
      { cmd: 'restack', id: 1, front: false, step: 7 },
      { cmd: 'grab', id: 1 },
      { cmd: 'drag', id: 1, x: 0, y: 0 },
      { cmd: 'drop', id: 1, x: 0, y: 0 },
      { cmd: 'pointer', x: 0, y: 0, visible: true },
      { cmd: 'tool', tool: 'select' },
      { cmd: 'viewport', viewport: { x: 0, y: 0, w: 10, h: 10 } },
      { cmd: 'chat', text: 'hi' },
      { cmd: 'conditions', conditions: { lossPct: 0, delayMs: 0, kbps: 0 } },
      { cmd: 'export', format: 'svg' },
      { cmd: 'kick', peer: 1 },
      { cmd: 'role', peer: 1, role: 'viewer' },
      { cmd: 'rotate-code' },
      { cmd: 'undo' },
      { cmd: 'redo' },
      { cmd: 'settings', settings: { directories: [] } },
      { cmd: 'sync' },
      { cmd: 'reshape', id: 1, x: 0, y: 0, w: 10, h: 20, rotation: 450 },
      { cmd: 'pin', ids: [1], pinned: false },
    ];
    for (const g of good) {
      expect(parseCommand(g), JSON.stringify(g)).not.toHaveProperty('error');
      const extra = { ...g, extra: true };
      expect(parseCommand(extra), JSON.stringify(extra)).toEqual({
        error: `unknown field in ${String(g.cmd)}`,
      });
    }
    expect(parseCommand({ cmd: 'grab', id: 1, extra: true })).toHaveProperty('error');
    expect(parseCommand({ cmd: 'toString' })).toEqual({ error: 'unknown command' });
  });

  it('takes the file commands with a bounded path (no NUL), and names the ones with a path', () => {
    expect(parseCommand({ cmd: 'save' })).toEqual({ cmd: 'save' });
    expect(parseCommand({ cmd: 'new' })).toEqual({ cmd: 'new' });
    expect(parseCommand({ cmd: 'open', path: '/home/a/plan.ghostboard' })).toEqual({
      cmd: 'open',
      path: '/home/a/plan.ghostboard',
    });
    expect(parseCommand({ cmd: 'save-as', path: 'C:\\b.ghostboard' })).toEqual({
      cmd: 'save-as',
      path: 'C:\\b.ghostboard',
    });
    for (const path of ['', '  ', 'a\0b', 'x'.repeat(MAX_PATH_CHARS + 1), 7, null])
      for (const cmd of ['open', 'save-as'])
        expect(parseCommand({ cmd, path })).toEqual({ error: `bad ${cmd} (a file path)` });
    expect(parseCommand({ cmd: 'open' })).toHaveProperty('error');
    expect(parseCommand({ cmd: 'save', path: '/a' })).toEqual({ error: 'unknown field in save' });
    expect(PATH_COMMANDS).toEqual(['open', 'save-as']);
  });

  it('validates the board a host starts with, an upload and a download (filesleft)', () => {
    const host = (board: unknown) => parseCommand({ cmd: 'host', options: { name: 'A', board } });
    for (const board of [
      { kind: 'new' },
      { kind: 'file', path: '/b/plan.ghostboard' },
      { kind: 'upload', name: 'plan.ghostboard', text: '{}' },
      { kind: 'recovered', id: 'untitled-1764160000000' },
    ])
      expect(host(board)).toEqual({ cmd: 'host', options: { name: 'A', board } });
    for (const board of [
      null,
      { kind: 'old' },
      { kind: 'new', path: '/x' },
      { kind: 'file', path: '' },
      { kind: 'upload', name: '', text: '{}' },
      { kind: 'upload', name: 'a', text: 'x'.repeat(MAX_IMPORT_CHARS + 1) },
      { kind: 'recovered', id: '../settings' },
      { kind: 'recovered', id: 'untitled-1/../../x' },
    ])
      expect(host(board)).toEqual({ error: 'bad board to host' });
    expect(parseCommand({ cmd: 'download' })).toEqual({ cmd: 'download' });
    expect(parseCommand({ cmd: 'open-text', name: 'p.ghostboard', text: '{}' })).toEqual({
      cmd: 'open-text',
      name: 'p.ghostboard',
      text: '{}',
    });
    for (const bad of [
      { cmd: 'open-text', name: 'a', text: 'x'.repeat(MAX_IMPORT_CHARS + 1) },
      { cmd: 'open-text', name: 'a\0', text: '' },
      { cmd: 'open-text', text: '' },
    ])
      expect(parseCommand(bad)).toHaveProperty('error');
    expect(namesAPath({ cmd: 'open', path: '/a' })).toBe(true);
    expect(
      namesAPath({ cmd: 'host', options: { name: 'A', board: { kind: 'file', path: '/a' } } }),
    ).toBe(true);
    expect(namesAPath({ cmd: 'host', options: { name: 'A', board: { kind: 'new' } } })).toBe(false);
  });
});
