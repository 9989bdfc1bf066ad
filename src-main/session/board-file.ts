// The session's side of board files: a load gives a Board (the session's driver of the board core), a save takes
// its text. The format is files/board-codec.ts; the durable reading and writing is files/board-file.ts.
import { readBoardFile } from '../files/board-file';
import type { BoardFileNotice } from '../files/board-file';
import type { ImageBlob } from '../../shared/images';
import { Board } from './board';

export type { BoardFileNotice } from '../files/board-file';
export { BOARD_BACKUPS, saveBoardFile } from '../files/board-file';

export interface BoardLoad {
  /** Undefined: no file yet (a new board; the first save creates it) or nothing could be restored. */
  readonly board: Board | undefined;
  /** Its images' bytes (absent: none). */
  readonly blobs?: readonly ImageBlob[];
  readonly notice?: BoardFileNotice;
}

/** Loads FILE as files/board-file.ts's readBoardFile does (setting a damaged one aside), as a Board. */
export async function loadBoardFile(file: string, now = new Date()): Promise<BoardLoad> {
  const { state, blobs = [], notice } = await readBoardFile(file, now);
  const board = state === undefined ? undefined : new Board(state);
  return {
    board,
    ...(blobs.length > 0 ? { blobs } : {}),
    ...(notice === undefined ? {} : { notice }),
  };
}
