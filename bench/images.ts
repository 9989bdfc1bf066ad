// Images benchmark: a 2 MB image uploaded by a joiner and fetched by another, over the simulated link (40 ms one
// way, no loss and 10 % loss), through the real session, blob link, event manager and scheduler: throughput in
// simulated time, how late the uploader's chat lines and pointer moves reach the host meanwhile, and the host's
// real CPU time per MB handled (hashing and chunk bookkeeping).
import { performance } from 'node:perf_hooks';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { Rng } from '../src-main/net/rng';
import { peerControls } from '../src-main/session/controls';
import type { SimSession } from '../src-main/session/testing/sim-session';
import { makeSimSession } from '../src-main/session/testing/sim-session';

const IMAGE_BYTES = 2 * 1024 * 1024;
const DELAY_MS = 40;
/** What a joiner's 66 packets/s of 1,200 bytes can carry, less framing: the uploads should use most of it. */
const TARGET_UPLOAD_KBPS = 400;
/** A chat line sent mid-upload reaches the host within one way and a few packet slots. */
const TARGET_CHAT_MS = DELAY_MS + 60;

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function until(s: SimSession, done: () => boolean, limitMs: number): Promise<number> {
  const start = s.sim.now;
  while (!done() && s.sim.now < start + limitMs) {
    s.sim.runUntil(s.sim.now + 10);
    await flush();
  }
  return s.sim.now - start;
}

async function measure(loss: number, seed: number): Promise<Record<string, number>> {
  const s = makeSimSession({ seed, conditions: { ...NO_IMPAIRMENT, delayMs: DELAY_MS, loss } });
  s.addPeer('Ana');
  s.addPeer('Ben');
  await until(s, () => false, 2000);
  const [anaSession, benSession] = s.peers;
  if (anaSession === undefined || benSession === undefined) throw new Error('peers');
  const ana = peerControls(anaSession);
  const bytes = new Rng(seed).bytes(IMAGE_BYTES);
  const up: { hash?: string } = {};
  const cpu0 = performance.now();
  void ana.putImage(s.sim.now, bytes, 'image/png').then((h) => {
    if (typeof h === 'string') up.hash = h;
  });
  // Mid-upload, a chat line and a pointer move every second; how late each reaches the host.
  const chatMs: number[] = [];
  const pointerMs: number[] = [];
  const start = s.sim.now;
  const uploaded = (): boolean => up.hash !== undefined;
  for (let i = 0; !uploaded() && i < 120; i++) {
    await until(s, uploaded, 1000);
    if (uploaded()) break;
    const text = `line ${i}`;
    const at = s.sim.now;
    ana.chat(at, text);
    ana.pointer(at, 100 + i, 100, true);
    const heard = (): boolean => s.hostEvents.some((e) => e.type === 'chat' && e.text === text);
    const moved = (): boolean =>
      s.hostEvents.some((e) => e.type === 'pointer' && e.pointer.x === 100 + i);
    let chat: number | undefined;
    let pointer: number | undefined;
    while ((chat === undefined || pointer === undefined) && s.sim.now < at + 2000) {
      s.sim.runUntil(s.sim.now + 1);
      if (chat === undefined && heard()) chat = s.sim.now - at;
      if (pointer === undefined && moved()) pointer = s.sim.now - at;
    }
    chatMs.push(chat ?? Infinity);
    pointerMs.push(pointer ?? Infinity);
  }
  const uploadMs = s.sim.now - start;
  const h = up.hash;
  if (h === undefined) throw new Error('upload did not finish');
  const created = ana.create(s.sim.now, {
    kind: 'image',
    x: 0,
    y: 0,
    w: 100,
    h: 100,
    rotation: 0,
    stroke: null,
    fill: null,
    strokeWidth: 0,
    text: '',
    points: [],
    blob: h,
  });
  void created;
  const downloadMs = await until(s, () => benSession.images.store.has(h), 120_000);
  const cpuMs = performance.now() - cpu0;
  const mb = IMAGE_BYTES / 2 ** 20;
  return {
    uploadKBps: Math.round(IMAGE_BYTES / 1024 / (uploadMs / 1000)),
    downloadKBps: Math.round(IMAGE_BYTES / 1024 / (downloadMs / 1000)),
    chatMsMax: Math.max(...chatMs),
    pointerMsMax: Math.max(...pointerMs),
    samples: chatMs.length,
    wallMsPerMb: Math.round(cpuMs / mb / 2),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const lossless = await measure(0, 1901);
  const lossy = await measure(0.1, 1902);
  const uploadKbps = (lossless.uploadKBps ?? 0) * 8;
  const chatMs = Math.max(lossless.chatMsMax ?? Infinity, lossy.chatMsMax ?? Infinity);
  return {
    loss0: lossless,
    loss10: lossy,
    targets: {
      uploadKbpsLossless: {
        limit: TARGET_UPLOAD_KBPS,
        value: uploadKbps,
        met: uploadKbps >= TARGET_UPLOAD_KBPS,
      },
      chatMsDuringUpload: { limit: TARGET_CHAT_MS, value: chatMs, met: chatMs <= TARGET_CHAT_MS },
    },
    definitions: {
      uploadKBps:
        'a 2 MB image, joiner to host: KB per simulated second from putImage to the host storing it',
      downloadKBps:
        "the same image, host to another joiner: from the object's create to the joiner having it",
      chatMsMax:
        "worst one-way time (simulated) of the uploader's chat lines sent once a second during the upload",
      pointerMsMax: "the same for the uploader's pointer moves (presence ghost)",
      wallMsPerMb:
        'real time per MB moved (upload and download, three sessions simulated in one process)',
    },
    config: {
      imageBytes: IMAGE_BYTES,
      delayMs: DELAY_MS,
      rate: 'broadband (66 packets/s to the host, 85 to peers)',
    },
  };
}
