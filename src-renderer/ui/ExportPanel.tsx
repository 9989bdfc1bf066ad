// Export and import: the whole board or the selection, as a PNG (1× or 2×, on white or transparent; downloaded or copied),
// an SVG, an Excalidraw scene, or a Ghostboard copy to keep (a joiner's "Save a copy"). Renders the store; the
// core writes each file's text (ui/export-file.ts draws the PNG). A .ghostboard or .excalidraw file's objects can be
// added to the board (the core reads the file). On the web host the board's own file comes first (WebBoardFile).
import { type ReactElement, useState } from 'react';
import type { ExportFormat } from '../../shared/api';
import { MAX_IMPORT_CHARS } from '../../shared/api';
import { useAppState, useController } from '../view/context';
import { copyPng, download, exportName, MIME, svgToPng } from './export-file';
import { Icon } from './icons';
import { WebBoardFile } from './WebBoardFile';

const EXTENSION: Readonly<Record<ExportFormat, string>> = {
  ghostboard: 'ghostboard',
  excalidraw: 'excalidraw',
  svg: 'svg',
};

/** The board format a file name says, for an import. */
export function importFormat(name: string): 'ghostboard' | 'excalidraw' | undefined {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext === 'ghostboard' || ext === 'excalidraw' ? ext : undefined;
}

export function ExportPanel(): ReactElement {
  const controller = useController();
  const selected = useAppState((s) => s.selection.length);
  const objects = useAppState((s) => s.board.size);
  const [onlySelection, setOnlySelection] = useState(false);
  const [scale, setScale] = useState(2);
  const [transparent, setTransparent] = useState(false);
  const [busy, setBusy] = useState(false);
  const scoped = onlySelection && selected > 0;

  const text = async (format: ExportFormat, clear = false): Promise<string | null> => {
    const ids = scoped ? controller.store.getState().selection : undefined;
    const r = await controller.invoke({
      cmd: 'export',
      format,
      ...(ids === undefined ? {} : { ids }),
      ...(clear ? { transparent: true } : {}),
    });
    if (!r.ok || r.text === undefined) {
      controller.toast('warn', `Nothing exported: ${r.ok ? 'the core sent no file' : r.reason}.`);
      return null;
    }
    return r.text;
  };
  const run = (job: () => Promise<void>): void => {
    setBusy(true);
    void job()
      .catch((e: unknown) => {
        controller.toast('error', `Export failed: ${e instanceof Error ? e.message : String(e)}`);
      })
      .finally(() => {
        setBusy(false);
      });
  };
  const png = async (): Promise<{ blob: Blob; scale: number } | null> => {
    const svg = await text('svg', transparent);
    if (svg === null) return null;
    const out = await svgToPng(svg, scale);
    if (out.scale < scale)
      controller.toast('info', `The board is large: exported at ${out.scale.toFixed(2)}×.`);
    return out;
  };
  const close = (): void => {
    controller.store.dispatch({ type: 'panel', panel: 'export', open: false });
  };

  return (
    <section className="popover export" aria-label="Export" data-testid="export-panel">
      <header className="popover-head">
        <h2>Export</h2>
        <button type="button" className="icon-btn small" aria-label="Close" onClick={close}>
          <Icon name="close" size={16} />
        </button>
      </header>
      <WebBoardFile busy={busy} />
      <fieldset className="export-row" disabled={busy}>
        <legend className="share-label">What</legend>
        <label>
          <input
            type="radio"
            name="export-scope"
            checked={!scoped}
            onChange={() => {
              setOnlySelection(false);
            }}
          />{' '}
          Whole board ({objects})
        </label>
        <label>
          <input
            type="radio"
            name="export-scope"
            data-testid="export-selection"
            disabled={selected === 0}
            checked={scoped}
            onChange={() => {
              setOnlySelection(true);
            }}
          />{' '}
          Selection ({selected})
        </label>
      </fieldset>
      <fieldset className="export-row" disabled={busy}>
        <legend className="share-label">Image</legend>
        {[1, 2].map((k) => (
          <label key={k}>
            <input
              type="radio"
              name="export-scale"
              checked={scale === k}
              onChange={() => {
                setScale(k);
              }}
            />{' '}
            {k}×
          </label>
        ))}
        <label>
          <input
            type="checkbox"
            data-testid="export-transparent"
            checked={transparent}
            onChange={(e) => {
              setTransparent(e.target.checked);
            }}
          />{' '}
          Transparent
        </label>
      </fieldset>
      <div className="export-actions">
        <button
          type="button"
          className="btn primary small"
          data-testid="export-png"
          disabled={busy || objects === 0}
          onClick={() => {
            run(async () => {
              const out = await png();
              if (out) download(exportName('png'), out.blob);
            });
          }}
        >
          PNG
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="export-copy-png"
          disabled={busy || objects === 0}
          onClick={() => {
            run(async () => {
              const out = await png();
              if (out === null) return;
              if (await copyPng(out.blob)) controller.toast('info', 'Image copied.');
              else
                controller.toast(
                  'warn',
                  'This window may not use the clipboard: download the PNG.',
                );
            });
          }}
        >
          Copy PNG
        </button>
        {(['svg', 'excalidraw', 'ghostboard'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="btn small"
            data-testid={`export-${format}`}
            disabled={busy || objects === 0}
            onClick={() => {
              run(async () => {
                const t = await text(format, format === 'svg' && transparent);
                if (t !== null)
                  download(exportName(EXTENSION[format]), new Blob([t], { type: MIME[format] }));
              });
            }}
          >
            {format === 'svg' ? 'SVG' : format === 'excalidraw' ? 'Excalidraw' : 'Ghostboard copy'}
          </button>
        ))}
      </div>
      <p className="muted small">
        SVG keeps shapes and text as vectors; an Excalidraw scene opens in Excalidraw; a Ghostboard
        copy keeps everything, to host again later.
      </p>
      <label className="btn small export-import">
        Import a .ghostboard or .excalidraw file…
        <input
          type="file"
          accept=".ghostboard,.excalidraw,application/json"
          data-testid="import-file"
          hidden
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file === undefined) return;
            run(async () => {
              const format = importFormat(file.name);
              if (format === undefined) {
                controller.toast('warn', 'Import takes a .ghostboard or an .excalidraw file.');
                return;
              }
              if (file.size > MAX_IMPORT_CHARS) {
                controller.toast('warn', 'That file is too large to import (at most 2 MB).');
                return;
              }
              const r = await controller.invoke({ cmd: 'import', format, text: await file.text() });
              if (!r.ok) controller.toast('warn', `Not imported: ${r.reason}.`);
            });
          }}
        />
      </label>
    </section>
  );
}
