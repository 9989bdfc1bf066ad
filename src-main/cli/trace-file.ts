// `ghostboard host --trace FILE`: a command trace written as the host records it — the header at once, each record
// appended in order, so a crash leaves at most the last record torn (which `replay` reads past). The encoding is
// mirror/trace.ts's; this knows nothing of sessions.
import type { WriteStream } from 'node:fs';
import { createWriteStream } from 'node:fs';
import type { MirrorId } from '../mirror/mirror-id';
import type { TraceRecord } from '../mirror/trace';
import { encodeTraceHeader, encodeTraceRecord } from '../mirror/trace';

export class TraceFile {
  /** Records written (handed to the stream). */
  records = 0;
  private failed: Error | undefined;

  private constructor(
    private readonly stream: WriteStream,
    private readonly onError: (e: Error) => void,
  ) {
    stream.on('error', (e) => this.fail(e));
  }

  /** Creates (or truncates) the file and writes the header; fails when the file cannot be opened. */
  static open(path: string, mirror: MirrorId, onError: (e: Error) => void): Promise<TraceFile> {
    return new Promise((resolve, reject) => {
      const stream = createWriteStream(path, { flags: 'w' });
      stream.once('error', reject);
      stream.once('open', () => {
        stream.off('error', reject);
        const file = new TraceFile(stream, onError);
        stream.write(encodeTraceHeader(mirror));
        resolve(file);
      });
    });
  }

  record(r: TraceRecord): void {
    if (this.failed !== undefined) return;
    this.stream.write(encodeTraceRecord(r));
    this.records++;
  }

  /** Everything written out and the file closed. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.failed !== undefined || this.stream.closed) {
        resolve();
        return;
      }
      this.stream.end(() => resolve());
    });
  }

  /** A write failed (disk full, file gone): said once, and the trace stops there; the session goes on. */
  private fail(e: Error): void {
    if (this.failed !== undefined) return;
    this.failed = e;
    this.onError(e);
  }
}
