// The tool options, docked under the board: stroke colour, fill and stroke width for new objects and the
// selection; plus delete and stacking for the selection. Renders the store; edits go through the controller.
// Knows nothing of Konva.
import type { ReactElement } from 'react';
import type { Color, ObjectId } from '../../shared/board';
import { colorToCss } from '../../shared/board';
import type { Style } from '../board/shapes';
import type { Controller } from '../controller/controller';
import { canEdit } from '../store/selectors';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';

const STROKES: readonly number[] = [0x1e1e1e, 0xe03131, 0x2f9e44, 0x1971c2, 0xf08c00, 0x9c36b5];
const FILLS: readonly Color[] = [null, 0xffc9c9, 0xb2f2bb, 0xa5d8ff, 0xfff3bf, 0xeebefa];
const WIDTHS: readonly { w: number; label: string }[] = [
  { w: 2, label: 'Thin' },
  { w: 4, label: 'Bold' },
  { w: 8, label: 'Extra bold' },
];

const COLOR_NAMES: Record<string, string> = {
  '#1e1e1e': 'Black',
  '#e03131': 'Red',
  '#2f9e44': 'Green',
  '#1971c2': 'Blue',
  '#f08c00': 'Orange',
  '#9c36b5': 'Violet',
  none: 'No fill',
  '#ffc9c9': 'Pink',
  '#b2f2bb': 'Mint',
  '#a5d8ff': 'Sky',
  '#fff3bf': 'Butter',
  '#eebefa': 'Lilac',
};

function Swatch(p: { color: Color; active: boolean; onPick: () => void }): ReactElement {
  const css = colorToCss(p.color);
  const name = COLOR_NAMES[css] ?? css;
  return (
    <button
      type="button"
      className={`swatch${p.active ? ' active' : ''}${p.color === null ? ' none' : ''}`}
      style={p.color === null ? undefined : { background: css }}
      aria-label={name}
      aria-pressed={p.active}
      data-tip={name}
      onClick={p.onPick}
    />
  );
}

function SwatchRow(p: {
  label: string;
  colors: readonly Color[];
  current: Color;
  pick: (c: Color) => void;
}): ReactElement {
  return (
    <div className="style-group">
      <span className="style-label">{p.label}</span>
      <div className="swatches">
        {p.colors.map((c) => (
          <Swatch
            key={String(c)}
            color={c}
            active={p.current === c}
            onPick={() => {
              p.pick(c);
            }}
          />
        ))}
      </div>
    </div>
  );
}

function WidthPicker({
  current,
  pick,
}: {
  current: number;
  pick: (w: number) => void;
}): ReactElement {
  return (
    <div className="style-group">
      <span className="style-label">Stroke width</span>
      <div className="segmented small">
        {WIDTHS.map(({ w, label }) => (
          <button
            key={w}
            type="button"
            className={current === w ? 'active' : ''}
            aria-pressed={current === w}
            aria-label={label}
            data-tip={label}
            onClick={() => {
              pick(w);
            }}
          >
            <span className="width-line" style={{ height: Math.max(1, w / 1.5) }} />
          </button>
        ))}
      </div>
    </div>
  );
}

function SelectionActions({
  id,
  controller,
}: {
  id: ObjectId;
  controller: Controller;
}): ReactElement {
  const actions = [
    {
      icon: 'front',
      label: 'Bring to front',
      run: () => {
        controller.restack(id, true);
      },
    },
    {
      icon: 'back',
      label: 'Send to back',
      run: () => {
        controller.restack(id, false);
      },
    },
    {
      icon: 'trash',
      label: 'Delete · Del',
      run: () => {
        controller.deleteSelection();
      },
    },
  ] as const;
  return (
    <div className="style-group row">
      {actions.map((a) => (
        <button
          key={a.icon}
          type="button"
          className={`icon-btn${a.icon === 'trash' ? ' danger' : ''}`}
          aria-label={a.label}
          data-tip={a.label}
          onClick={a.run}
        >
          <Icon name={a.icon} />
        </button>
      ))}
    </div>
  );
}

export function StylePanel(): ReactElement | null {
  const controller = useController();
  const tool = useAppState((s) => s.tool);
  const style = useAppState((s) => s.style);
  const selection = useAppState((s) => s.selection);
  const board = useAppState((s) => s.board);
  const editable = useAppState(canEdit);
  if (!editable || (tool === 'select' && selection.length === 0)) return null;
  const first = selection[0] === undefined ? undefined : board.get(selection[0]);
  const current: Style = first ?? style;
  return (
    <aside className="style-panel tip-up" aria-label="Style" data-testid="style-panel">
      <SwatchRow
        label="Stroke"
        colors={STROKES}
        current={current.stroke}
        pick={(c) => {
          controller.applyStyle({ stroke: c });
        }}
      />
      <SwatchRow
        label="Fill"
        colors={FILLS}
        current={current.fill}
        pick={(c) => {
          controller.applyStyle({ fill: c });
        }}
      />
      <WidthPicker
        current={current.strokeWidth}
        pick={(w) => {
          controller.applyStyle({ strokeWidth: w });
        }}
      />
      {first && <SelectionActions id={first.id} controller={controller} />}
    </aside>
  );
}
