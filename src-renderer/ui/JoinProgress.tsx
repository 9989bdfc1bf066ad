// Where a join is: "Looking up the session on the directory…", then "Connecting…", as a row of steps.
// Renders the store's 'connecting' status; knows nothing of the bridge.
import type { ReactElement } from 'react';
import { joinStage, type JoinStage, stageText } from '../store/reach-text';
import { useAppState } from '../view/context';
import { Icon } from './icons';

const STEPS: readonly { readonly stage: JoinStage; readonly label: string }[] = [
  { stage: 'looking-up', label: 'Looking up' },
  { stage: 'connecting', label: 'Connecting' },
  { stage: 'relaying', label: 'Relaying' },
];

export function JoinProgress(p: { readonly viaDirectory: boolean }): ReactElement | null {
  const status = useAppState((s) => s.status);
  const stage = joinStage(status);
  const text = stageText(status);
  if (stage === null || text === null) return null;
  // A join straight to an address has no look-up step.
  // The relay step shows only when a join gets there (most open a direct path first).
  const shown = stage === 'relaying' ? STEPS : STEPS.slice(0, 2);
  const steps = p.viaDirectory || stage === 'looking-up' ? shown : shown.slice(1);
  const at = steps.findIndex((s) => s.stage === stage);
  return (
    <div className="join-stages" role="status" aria-live="polite">
      <ol className="steps">
        {steps.map((s, i) => (
          <li key={s.stage} className={i < at ? 'done' : i === at ? 'current' : ''}>
            {i < at ? (
              <Icon name="check" size={13} />
            ) : i === at ? (
              <span className="spinner" aria-hidden="true" />
            ) : (
              <span className="step-dot" aria-hidden="true" />
            )}
            {s.label}
          </li>
        ))}
      </ol>
      <p className="muted small" data-testid="join-stage" data-stage={stage}>
        {text}
      </p>
    </div>
  );
}
