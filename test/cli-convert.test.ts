// `ghostboard convert IN OUT` as a user runs it: an .excalidraw scene (as Excalidraw 0.18 saves it) becomes a
// .ghostboard file, and the command says how many objects came along and what did not.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ghostboard convert', () => {
  it('`ghostboard convert IN OUT` writes the new file and reports what it did', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ghostboard-convert-'));
    dirs.push(dir);
    const input = join(dir, 'scene.excalidraw');
    writeFileSync(
      input,
      readFileSync(
        new URL('../src-main/files/fixtures/excalidraw-0.18.excalidraw', import.meta.url),
      ),
    );
    const output = join(dir, 'board.ghostboard');
    const bin = new URL('../bin/ghostboard.js', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [bin, 'convert', input, output], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(out.trim())).toEqual({
      t: expect.any(Number) as number,
      ev: 'converted',
      from: input,
      to: output,
      objects: 7,
      lost: ['1 diamond elements skipped', '1 image elements skipped'],
    });
    const saved = JSON.parse(readFileSync(output, 'utf8')) as {
      format: string;
      objects: { kind: string }[];
    };
    expect(saved.format).toBe('ghostboard-board');
    expect(saved.objects.map((o) => o.kind)).toEqual([
      'rect',
      'ellipse',
      'note',
      'text',
      'arrow',
      'line',
      'stroke',
    ]);
  });
});
