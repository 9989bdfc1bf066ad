// The web host's board file (filesleft), atop the Export panel: a browser names no path on the host's disk, so the
// open board leaves as a download (its .ghostboard file, after which the board has no unsaved changes) and another
// comes in as an upload, replacing the board for everyone as the desktop's Open does (the same refusals: nothing
// changes on one). Shown only while hosting without the desktop's File menu. Knows nothing of Konva.
import type { ReactElement } from 'react';
import { MAX_IMPORT_CHARS } from '../../shared/api';
import { useAppState, useController } from '../view/context';
import { download, MIME } from './export-file';

export function WebBoardFile(p: { readonly busy: boolean }): ReactElement | null {
  const controller = useController();
  const hosting = useAppState((s) => s.status.phase === 'hosting');
  const file = useAppState((s) => s.file);
  if (!hosting || controller.chooseBoardFile !== undefined) return null;
  const name = file?.name ?? 'Untitled';
  return (
    <div className="export-file" aria-label="Board file">
      <div className="export-actions">
        <button
          type="button"
          className="btn primary small"
          data-testid="board-download"
          disabled={p.busy}
          onClick={() => {
            void controller.invoke({ cmd: 'download' }).then((r) => {
              if (!r.ok || r.text === undefined) {
                controller.toast('warn', `Not downloaded: ${r.ok ? 'no file came' : r.reason}.`);
                return;
              }
              download(`${name}.ghostboard`, new Blob([r.text], { type: MIME.ghostboard }));
            });
          }}
        >
          Download {name}.ghostboard
        </button>
        <label className="btn small export-import">
          Upload a board file…
          <input
            type="file"
            accept=".ghostboard"
            hidden
            disabled={p.busy}
            data-testid="board-file-upload"
            onChange={(e) => {
              const input = e.currentTarget;
              const chosen = input.files?.[0];
              input.value = '';
              if (chosen === undefined) return;
              if (chosen.size > MAX_IMPORT_CHARS) {
                controller.toast('warn', 'That file is too large to upload (at most 2 MB).');
                return;
              }
              if (
                file?.dirty === true &&
                !window.confirm(`Discard the unsaved changes to ${name}?`)
              )
                return;
              void chosen.text().then(async (text) => {
                const r = await controller.invoke({ cmd: 'open-text', name: chosen.name, text });
                if (!r.ok) controller.toast('error', `Not opened: ${r.reason}.`);
              });
            }}
          />
        </label>
      </div>
      <p className="muted small">
        {file?.dirty === true ? 'Unsaved changes: download' : 'Download'} to keep the board as a
        file; an upload replaces the board for everyone.
      </p>
    </div>
  );
}
