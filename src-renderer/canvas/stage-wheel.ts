// Wheel events straight to the stage. Konva looks up the shape under the pointer for every wheel event (reading
// back the hit canvas, which on a large board means drawing it afresh after each frame of a pan or zoom), to
// fire the event on it first; nothing on the board listens to the wheel but the stage itself, which hears the
// same event either way. Knows Konva and nothing else.
import type Konva from 'konva';

interface WheelInternals {
  _wheel: (evt: WheelEvent) => void;
  _fire: (type: string, e: object) => void;
}

/** Makes `stage` fire wheel events on itself without picking a shape (idempotent). */
export function wheelWithoutPicking(stage: Konva.Stage): void {
  const s = stage as unknown as WheelInternals;
  s._wheel = (evt) => {
    stage.setPointersPositions(evt);
    s._fire('wheel', { evt, target: stage, currentTarget: stage });
  };
}
