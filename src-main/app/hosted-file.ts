// The open file of a board the app core hosts, wired to its session: made for the session's board and images, the
// board the user picked loaded into it, told of each change and ticked for its autosave. Knows nothing of joining,
// of the renderer or of sockets.
import type { ApiEvent, ApiReply } from '../../shared/api';
import type { CoreClock, SessionHandle } from './core-io';
import { applyLoad } from './file-commands';
import type { LoadedBoard } from './file-commands';
import { OpenFile } from './open-file';
import { unsavedId, UnsavedSlot } from './unsaved-boards';

/** The hosted board's open file: a board with no file keeps its unsaved changes in `slot` (else a new one). */
export function hostedFile(
  s: SessionHandle['controls'],
  dataDir: string,
  slot: string | undefined,
  emit: (e: ApiEvent) => void,
): OpenFile {
  const images = s.images;
  return new OpenFile(
    {
      hash: () => s.board.hash(),
      text: () => s.board.toFile((h) => images.get(h)),
      objects: () => s.board.state,
      blob: (h) => images.get(h),
    },
    emit,
    new UnsavedSlot(dataDir, slot ?? unsavedId(Date.now())),
  );
}

/**
 * Starts the board as `start` (none: as it is), shows the file, and keeps it told of the board's changes and
 * ticked every `tickMs` until `stop`. `started`: whether the board could start so.
 */
export function runHostedFile(
  s: SessionHandle['controls'],
  file: OpenFile,
  start: LoadedBoard | undefined,
  app: { readonly clock: CoreClock; readonly tickMs: number; emit(e: ApiEvent): void },
): { started: ApiReply; stop: () => void } {
  const clock = app.clock;
  const replace = s.replaceBoard;
  const started =
    start === undefined || replace === undefined
      ? { ok: true as const }
      : applyLoad(start, replace, file, clock.now(), (e) => app.emit(e));
  file.show(true);
  const untouch = s.board.subscribe(() => {
    file.touch();
  });
  const tick = clock.every(app.tickMs, () => {
    file.tick(clock.now());
  });
  const stop = (): void => {
    tick();
    untouch();
  };
  return { started, stop };
}
