// The Host tab's board (filesleft): New, an unsaved board a host left ("Recover unsaved board from …"), the recent
// files (desktop), and a file of the user's: Open… (the desktop's dialog) or an upload (the web host, whose browser
// names no path). Renders the choices; the start screen sends them with the host command. Knows nothing of Konva.
import { type ReactElement, useState } from 'react';
import type { StartBoard } from '../../shared/api';
import { MAX_IMPORT_CHARS } from '../../shared/api';
import { boardOptions, sameBoard } from '../store/start-board';
import { useAppState, useController } from '../view/context';

const when = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Open… on the desktop (a path), an upload on the web host (the file's text). */
function OpenButton(p: { readonly pick: (b: StartBoard) => void }): ReactElement {
  const controller = useController();
  const [busy, setBusy] = useState(false);
  const choose = controller.chooseBoardFile;
  if (choose !== undefined)
    return (
      <button
        type="button"
        className="btn ghost"
        data-testid="board-open-file"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void choose().then((path) => {
            setBusy(false);
            if (path !== undefined) p.pick({ kind: 'file', path });
          });
        }}
      >
        Open a board file…
      </button>
    );
  return (
    <label className="btn ghost file-btn">
      Upload a board file…
      <input
        type="file"
        accept=".ghostboard"
        hidden
        data-testid="board-upload-file"
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          input.value = '';
          if (file === undefined) return;
          if (file.size > MAX_IMPORT_CHARS) {
            controller.toast('warn', 'That file is too large to upload (at most 2 MB).');
            return;
          }
          void file.text().then((text) => {
            p.pick({ kind: 'upload', name: file.name, text });
          });
        }}
      />
    </label>
  );
}

export function BoardChoice(p: {
  readonly board: StartBoard;
  readonly picked: StartBoard | null;
  readonly pick: (b: StartBoard) => void;
}): ReactElement {
  const recoveries = useAppState((s) => s.recoveries);
  const recent = useAppState((s) => s.recentFiles);
  const options = boardOptions(recoveries, p.picked, recent, when);
  return (
    <fieldset className="choices board-choices" aria-label="Board">
      <legend className="field-label">Board</legend>
      {options.map((o) => {
        const picked = sameBoard(o.board, p.board);
        return (
          <label key={o.key} className={`choice${picked ? ' active' : ''}`}>
            <input
              type="radio"
              name="board"
              checked={picked}
              data-testid={`board-${o.board.kind}`}
              onChange={() => {
                p.pick(o.board);
              }}
            />
            <span className="choice-text">
              <span className="choice-title">{o.title}</span>
              <span className="choice-detail" title={o.detail}>
                {o.detail}
              </span>
            </span>
          </label>
        );
      })}
      <OpenButton pick={p.pick} />
    </fieldset>
  );
}
