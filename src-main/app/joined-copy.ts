// A joiner's copy of the board, written to the data directory when its host goes away (rejoin.ts). Knows nothing
// of sessions or of why the host went.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import type { BoardObject } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { exportBoard } from '../files/convert';

/** A joiner's copy of the board, written when its host goes away. */
export const JOINED_COPY_FILE = 'last-joined-board.ghostboard';

/** The host's board, kept on disk while it is away: nothing is lost if it never comes back. */
export async function keepJoinedCopy(
  dataDir: string,
  board: readonly BoardObject[],
  images: { get(hash: string): ImageBlob | undefined },
): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
    const file = joinPath(dataDir, JOINED_COPY_FILE);
    await writeFile(
      `${file}.tmp`,
      exportBoard(board, 'ghostboard', false, (h) => images.get(h)),
    );
    await rename(`${file}.tmp`, file);
  } catch {
    // The copy in memory (Export → Ghostboard copy) still holds it.
  }
}
