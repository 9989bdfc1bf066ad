// Sliders for the impairment the app adds to its own traffic (loss, delay, bandwidth cap), sent as
// `{cmd:'conditions'}` shortly after the user stops moving them. Knows nothing of Konva.
import { type ReactElement, useEffect, useRef, useState } from 'react';
import type { NetworkConditions } from '../../shared/api';
import { useAppState, useController } from '../view/context';

/** Cap presets (kbit/s), 0 = none: a slider over these reads better than one over 0..1,000,000. */
const CAPS = [0, 5000, 2000, 1000, 512, 256, 128, 56, 28, 16];
const SEND_DELAY_MS = 150;
const NONE: NetworkConditions = { lossPct: 0, delayMs: 0, kbps: 0 };

function capIndex(kbps: number): number {
  if (kbps === 0) return 0;
  let best = 1;
  CAPS.forEach((c, i) => {
    if (i > 0 && Math.abs(c - kbps) < Math.abs((CAPS[best] ?? 0) - kbps)) best = i;
  });
  return best;
}

function Slider(p: {
  label: string;
  value: string;
  min: number;
  max: number;
  step: number;
  at: number;
  set: (v: number) => void;
}): ReactElement {
  return (
    <label className="slider">
      <span className="slider-head">
        <span>{p.label}</span>
        <output>{p.value}</output>
      </span>
      <input
        type="range"
        min={p.min}
        max={p.max}
        step={p.step}
        value={p.at}
        onChange={(e) => {
          p.set(Number(e.target.value));
        }}
      />
    </label>
  );
}

/** The sliders' values: the core's until the user moves one, then the user's, sent shortly after each change. */
function useConditionsDraft(): [NetworkConditions, (c: NetworkConditions) => void] {
  const controller = useController();
  const applied = useAppState((s) => s.stats?.conditions ?? null);
  const [c, setC] = useState<NetworkConditions>(applied ?? NONE);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The core's value rules except while a change of the user's waits to be sent (the top bar's badge may turn
  // the conditions off from elsewhere).
  useEffect(() => {
    if (timer.current === null && applied) setC(applied);
  }, [applied]);
  const update = (next: NetworkConditions): void => {
    setC(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void controller.invoke({ cmd: 'conditions', conditions: next }).then((r) => {
        if (!r.ok) controller.toast('warn', `Conditions not applied: ${r.reason}`);
      });
    }, SEND_DELAY_MS);
  };
  return [c, update];
}

export function ConditionsControl(): ReactElement {
  const [c, update] = useConditionsDraft();
  const none = c.lossPct === 0 && c.delayMs === 0 && c.kbps === 0;
  return (
    <section className="conditions" aria-label="Network conditions">
      <header className="section-head">
        <h3>Network conditions</h3>
        <button
          type="button"
          className="btn ghost small"
          disabled={none}
          onClick={() => {
            update(NONE);
          }}
        >
          Reset
        </button>
      </header>
      <p className="muted small">
        Impairs this app’s own traffic, to watch how the session degrades.
      </p>
      <Slider
        label="Packet loss"
        value={`${c.lossPct} %`}
        min={0}
        max={50}
        step={1}
        at={c.lossPct}
        set={(v) => {
          update({ ...c, lossPct: v });
        }}
      />
      <Slider
        label="Added delay"
        value={`${c.delayMs} ms`}
        min={0}
        max={1000}
        step={10}
        at={c.delayMs}
        set={(v) => {
          update({ ...c, delayMs: v });
        }}
      />
      <Slider
        label="Upload cap"
        value={c.kbps === 0 ? 'none' : `${c.kbps} kbit/s`}
        min={0}
        max={CAPS.length - 1}
        step={1}
        at={capIndex(c.kbps)}
        set={(i) => {
          update({ ...c, kbps: CAPS[i] ?? 0 });
        }}
      />
    </section>
  );
}
