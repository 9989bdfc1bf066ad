// Test kit: the one rectangle fixture, a valid NewObject of kind 'rect' with the fields a test cares about given.
// Knows nothing of sessions, the wire or the UI.
import type { NewObject } from '../board';

/** A 100 x 60 rectangle at the origin, dark outline, no fill, unless `fields` say otherwise. */
export function newRect(fields: Partial<NewObject> = {}): NewObject {
  return {
    kind: 'rect',
    x: 0,
    y: 0,
    w: 100,
    h: 60,
    rotation: 0,
    stroke: 0x222222,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
    ...fields,
  };
}
