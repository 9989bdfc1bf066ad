// The directory list (HOST:PORT, up to 4) hosted sessions register with, as a disclosure on the start screen.
// Sends 'settings' and shows the core's refusal; renders the store's settings. Knows nothing of Konva.
import { type KeyboardEvent, type ReactElement, useState } from 'react';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';

const MAX_DIRECTORIES = 4;

export function DirectorySettings(): ReactElement {
  const controller = useController();
  const settings = useAppState((s) => s.settings);
  const directories = settings.directories;
  const [draft, setDraft] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = (list: readonly string[], after?: () => void): void => {
    setBusy(true);
    setRefused(null);
    // The other settings (image limits) kept as they are.
    void controller
      .invoke({ cmd: 'settings', settings: { ...settings, directories: list } })
      .then((r) => {
        setBusy(false);
        if (r.ok) after?.();
        else setRefused(r.reason);
      });
  };
  const entry = draft.trim();
  const canAdd =
    !busy && entry !== '' && directories.length < MAX_DIRECTORIES && !directories.includes(entry);
  const add = (): void => {
    if (canAdd)
      save([...directories, entry], () => {
        setDraft('');
      });
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    add();
  };

  return (
    <details className="advanced settings" data-testid="directory-settings">
      <summary>
        Directory ·{' '}
        {directories.length === 0 ? 'none (LAN and addresses only)' : directories.join(', ')}
      </summary>
      <div className="settings-body">
        <p className="field-hint">
          A directory lets people reach a session you host through a link, even behind routers.
          Sessions register with every directory listed here.
        </p>
        {directories.length > 0 && (
          <ul className="dir-list">
            {directories.map((d) => (
              <li key={d} className="dir-row" data-testid="directory-entry">
                <code>{d}</code>
                <button
                  type="button"
                  className="icon-btn small"
                  aria-label={`Remove the directory ${d}`}
                  disabled={busy}
                  onClick={() => {
                    save(directories.filter((x) => x !== d));
                  }}
                >
                  <Icon name="trash" size={14} />
                </button>
              </li>
            ))}
          </ul>
        )}
        {directories.length < MAX_DIRECTORIES ? (
          <div className="dir-add">
            <input
              className="mono"
              value={draft}
              placeholder="directory.example.org:7340"
              aria-label="Directory address (HOST:PORT)"
              maxLength={300}
              spellCheck={false}
              data-testid="directory-input"
              onKeyDown={onKey}
              onChange={(e) => {
                setDraft(e.target.value);
                setRefused(null);
              }}
            />
            <button
              type="button"
              className="btn ghost small"
              disabled={!canAdd}
              data-testid="directory-add"
              onClick={add}
            >
              Add
            </button>
          </div>
        ) : (
          <p className="field-hint">At most {MAX_DIRECTORIES} directories.</p>
        )}
        {refused !== null && (
          <p className="callout error" role="alert" data-testid="directory-refused">
            {refused}
          </p>
        )}
      </div>
    </details>
  );
}
