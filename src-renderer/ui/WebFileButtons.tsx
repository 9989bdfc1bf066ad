// The web host's board file (filesleft): a browser names no path on the host's disk, so the open board leaves as a
// download (the .ghostboard file, after which the board has no unsaved changes) and another comes in as an upload,
// replacing the board for everyone as the desktop's Open does (the same refusals: nothing changes on one). Shown
// only while hosting without the desktop's File menu. Knows nothing of Konva.
import type { ReactElement } from 'react';
import { MAX_IMPORT_CHARS } from '../../shared/api';
import { useAppState, useController } from '../view/context';
import { download, MIME } from './export-file';
import { Icon } from './icons';

export function WebFileButtons(): ReactElement | null {
  const controller = useController();
  const hosting = useAppState((s) => s.status.phase === 'hosting');
  const file = useAppState((s) => s.file);
  if (!hosting || controller.chooseBoardFile !== undefined) return null;
  const name = file?.name ?? 'Untitled';
  return (
    <>
      <button
        type="button"
        className="icon-btn"
        aria-label="Download the board file"
        data-tip="Download"
        data-testid="board-download"
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
        <Icon name="save" />
      </button>
      <label className="icon-btn" aria-label="Open a board file (upload)" data-tip="Upload">
        <Icon name="upload" />
        <input
          type="file"
          accept=".ghostboard"
          hidden
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
            if (file?.dirty === true && !window.confirm(`Discard the unsaved changes to ${name}?`))
              return;
            void chosen.text().then(async (text) => {
              const r = await controller.invoke({ cmd: 'open-text', name: chosen.name, text });
              if (!r.ok) controller.toast('error', `Not opened: ${r.reason}.`);
            });
          }}
        />
      </label>
    </>
  );
}
