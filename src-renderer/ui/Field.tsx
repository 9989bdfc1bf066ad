// A labelled text input with an optional hint. Pure presentation; knows nothing of the store.
import type { ReactElement } from 'react';

export interface FieldProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly placeholder?: string;
  readonly hint?: string;
  /** The hint's tone: 'ok' says the input was recognized, 'warn' that something looks wrong. */
  readonly hintTone?: 'ok' | 'warn';
  readonly hintTestId?: string;
  readonly mono?: boolean;
  readonly autoFocus?: boolean;
  readonly max?: number;
  /** data-testid of the input. */
  readonly testId?: string;
}

export function Field(p: FieldProps): ReactElement {
  return (
    <label className="field">
      <span className="field-label">{p.label}</span>
      <input
        className={p.mono ? 'mono' : undefined}
        value={p.value}
        placeholder={p.placeholder}
        maxLength={p.max ?? 300}
        autoFocus={p.autoFocus}
        spellCheck={false}
        data-testid={p.testId}
        onChange={(e) => {
          p.onChange(e.target.value);
        }}
      />
      {p.hint !== undefined && (
        <span
          className={p.hintTone === undefined ? 'field-hint' : `field-hint ${p.hintTone}`}
          data-testid={p.hintTestId}
        >
          {p.hint}
        </span>
      )}
    </label>
  );
}
