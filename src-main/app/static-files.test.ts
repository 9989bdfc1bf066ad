// Static file resolution: paths stay inside the root whatever the URL says; MIME types by extension.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeType, resolveStaticFile, safeSegments } from './static-files';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'gb-static-'));
  root = join(base, 'root');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'a b.css'), 'body{}');
  writeFileSync(join(base, 'secret.txt'), 'secret');
  symlinkSync(join(base, 'secret.txt'), join(root, 'escape.txt'));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('safeSegments', () => {
  it('decodes ordinary paths', () => {
    expect(safeSegments('/')).toEqual([]);
    expect(safeSegments('/assets/a%20b.css')).toEqual(['assets', 'a b.css']);
    expect(safeSegments('//assets//app.js')).toEqual(['assets', 'app.js']);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/..%5csecret.txt',
    '/assets\\..\\..\\secret.txt',
    '/x%00.js',
    '/C:%5Cwindows',
    '/%E0%A4%A',
    'relative',
    '/./index.html',
  ])('refuses %s', (p) => {
    expect(safeSegments(p)).toBeUndefined();
  });
});

describe('resolveStaticFile', () => {
  it('serves the index for a directory and files under the root', async () => {
    expect((await resolveStaticFile(root, '/'))?.path).toBe(join(root, 'index.html'));
    const js = await resolveStaticFile(root, '/assets/app.js');
    expect(js?.contentType).toBe('text/javascript; charset=utf-8');
    expect(js?.size).toBe(14);
    expect((await resolveStaticFile(root, '/assets/a%20b.css'))?.contentType).toMatch(/^text\/css/);
  });

  it('refuses traversal, symlinks out of the root and missing files', async () => {
    expect(await resolveStaticFile(root, '/../secret.txt')).toBeUndefined();
    expect(await resolveStaticFile(root, '/%2e%2e/secret.txt')).toBeUndefined();
    expect(await resolveStaticFile(root, '/escape.txt')).toBeUndefined();
    expect(await resolveStaticFile(root, '/nope.js')).toBeUndefined();
    expect(await resolveStaticFile(join(base, 'missing-root'), '/')).toBeUndefined();
  });
});

describe('mimeType', () => {
  it('names common types and falls back to octet-stream', () => {
    expect(mimeType('index.HTML')).toBe('text/html; charset=utf-8');
    expect(mimeType('x.svg')).toBe('image/svg+xml');
    expect(mimeType('x.woff2')).toBe('font/woff2');
    expect(mimeType('x.wasm')).toBe('application/wasm');
    expect(mimeType('Makefile')).toBe('application/octet-stream');
  });
});
