// The floating tool bar (with shortcut tooltips), then undo and redo. Renders the store's tool; sends tool changes,
// undo and redo via the controller.
import type { ReactElement } from 'react';
import type { Tool } from '../../shared/api';
import { canEdit, selfParticipant } from '../store/selectors';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';
import { undoRedo } from './use-shortcuts';

/** Undo and redo of this user's own steps, after the tools. */
const HISTORY_INFO = [
  { way: 'undo', label: 'Undo', key: 'Ctrl+Z', glyph: '↶' },
  { way: 'redo', label: 'Redo', key: 'Ctrl+Shift+Z', glyph: '↷' },
] as const;

export const TOOL_INFO: readonly { tool: Tool; label: string; key: string }[] = [
  { tool: 'select', label: 'Select', key: 'V' },
  { tool: 'rect', label: 'Rectangle', key: 'R' },
  { tool: 'ellipse', label: 'Ellipse', key: 'O' },
  { tool: 'line', label: 'Line', key: 'L' },
  { tool: 'arrow', label: 'Arrow', key: 'A' },
  { tool: 'pen', label: 'Pen', key: 'P' },
  { tool: 'text', label: 'Text', key: 'T' },
  { tool: 'note', label: 'Sticky note', key: 'N' },
];

export function Toolbar(): ReactElement {
  const controller = useController();
  const tool = useAppState((s) => s.tool);
  const editable = useAppState(canEdit);
  const canUndo = useAppState((s) => s.canUndo);
  const canRedo = useAppState((s) => s.canRedo);
  const viewer = useAppState((s) => selfParticipant(s)?.role === 'viewer');
  return (
    <nav className="toolbar" aria-label="Tools">
      {TOOL_INFO.map((t, i) => (
        <span key={t.tool} className="tool-wrap">
          {i === 1 && <span className="toolbar-sep" aria-hidden="true" />}
          <button
            type="button"
            className={`tool${tool === t.tool ? ' active' : ''}`}
            aria-pressed={tool === t.tool}
            data-testid={`tool-${t.tool}`}
            aria-label={`${t.label} (${t.key})`}
            data-tip={`${t.label} · ${t.key}`}
            disabled={!editable && t.tool !== 'select'}
            onClick={() => {
              controller.setTool(t.tool);
            }}
          >
            <Icon name={t.tool} />
            <span className="tool-key" aria-hidden="true">
              {t.key}
            </span>
          </button>
        </span>
      ))}
      <span className="toolbar-sep" aria-hidden="true" />
      {HISTORY_INFO.map((h) => (
        <span key={h.way} className="tool-wrap">
          <button
            type="button"
            className="tool"
            data-testid={h.way}
            aria-label={`${h.label} (${h.key})`}
            data-tip={`${h.label} · ${h.key}`}
            disabled={!editable || !(h.way === 'undo' ? canUndo : canRedo)}
            onClick={() => {
              undoRedo(controller, h.way);
            }}
          >
            <span aria-hidden="true">{h.glyph}</span>
          </button>
        </span>
      ))}
      {viewer && (
        <span
          className="view-only"
          role="note"
          data-testid="view-only"
          title="The host made you a viewer: you can look around, point and chat, not change the board"
        >
          View only
        </span>
      )}
    </nav>
  );
}
