// Test kit: a user's updates told apart by the x they carry. User u's update of frame n sits at width · (u + 1) + n
// (column u), so a receiver knows whose update it is and which, and looks up when it was sent. Not product code.

/** How often the kits' users move their mouse. */
export const POINTER_HZ = 60;
/** Frames a column tells apart (the send times kept per user, a ring). */
export const FRAMES = 600;

/** The x of user `user`'s update of frame `frame`, in columns `width` wide. */
export function columnX(width: number, user: number, frame: number): number {
  return width * (user + 1) + frame;
}

/** Whose update an x is, and its frame. */
export function columnOf(width: number, x: number): { from: number; frame: number } {
  return { from: Math.floor(x / width) - 1, frame: x % width };
}
