import { describe, expect, it } from 'vitest';
import {
  adaptBudget,
  BUSY_HIGH,
  BUSY_LOW,
  fetchingBoard,
  HOST_PACKETS,
  MAX_BUDGET_SCALE,
  MIN_BUDGET_SCALE,
  MIN_PEER_PACKETS,
  peerShare,
} from './host-packet-rates';

/** What a broadband host accepts from each peer, and the most it sends one (the board download's rate). */
const up = { packetsPerSecond: 66, packetBytes: 238 };
const downCap = { packetsPerSecond: 210, packetBytes: 238 };

describe('peerShare', () => {
  it('keeps the usual rate each way while the peers fit the host’s budget', () => {
    expect(peerShare(up, 1)).toBe(up);
    expect(peerShare(up, 60)).toBe(up);
    expect(peerShare(downCap, 19)).toBe(downCap);
  });

  it('shares the budget among many peers, never under the floor, in packets of the same size', () => {
    for (const usual of [up, downCap]) {
      expect(peerShare(usual, 100)).toEqual({ packetsPerSecond: 40, packetBytes: 238 });
      expect(peerShare(usual, 160)).toEqual({ packetsPerSecond: 25, packetBytes: 238 });
      expect(peerShare(usual, 250)).toEqual({
        packetsPerSecond: MIN_PEER_PACKETS,
        packetBytes: 238,
      });
      for (let peers = 1; peers <= 1000; peers++) {
        const pps = peerShare(usual, peers).packetsPerSecond;
        expect(pps).toBeLessThanOrEqual(usual.packetsPerSecond);
        expect(pps).toBeGreaterThanOrEqual(MIN_PEER_PACKETS);
        // Within the budget wherever the floor allows.
        if (pps > MIN_PEER_PACKETS) expect(pps * peers).toBeLessThanOrEqual(HOST_PACKETS);
      }
    }
  });

  it('never raises a rate below the floor (a modem) and follows a budget given', () => {
    const modem = { packetsPerSecond: 10, packetBytes: 238 };
    expect(peerShare(modem, 1000)).toBe(modem);
    expect(peerShare(up, 8, 240).packetsPerSecond).toBe(30);
    expect(peerShare(up, 4, 240).packetsPerSecond).toBe(60);
  });

  it('lets a peer fetching the board keep the cap: it asks for more than the session’s usual rate only then', () => {
    const usual = { packetsPerSecond: 85, packetBytes: 238 };
    expect(fetchingBoard(downCap, usual)).toBe(true);
    expect(fetchingBoard(usual, usual)).toBe(false);
    expect(fetchingBoard({ packetsPerSecond: 30, packetBytes: 238 }, usual)).toBe(false);
  });
});

describe('adaptBudget', () => {
  /** A host alone on its core: its loop is busy when it uses the core. */
  const alone = (cpu: number) => ({ cpu, loop: cpu });

  it('cuts a busy host’s budget at once, in proportion to how far past its target it is, by at most 30 %', () => {
    expect(adaptBudget(1, alone(0.95), 1, true)).toBeCloseTo(0.75 / 0.95);
    expect(adaptBudget(1, alone(1), 1, true)).toBeCloseTo(0.75);
    // Hopelessly busy (threads besides the loop): 30 % a second, down to the least scale.
    expect(adaptBudget(1, { cpu: 5, loop: 1 }, 1, true)).toBeCloseTo(0.7);
    let scale = 1;
    for (let i = 0; i < 20; i++) scale = adaptBudget(scale, alone(1), scale, true);
    expect(scale).toBe(MIN_BUDGET_SCALE);
  });

  it('cuts from what the peers use, so a small session’s cut bites at once', () => {
    expect(adaptBudget(1, alone(1), 0.5, false)).toBeCloseTo(0.375);
    expect(adaptBudget(1, alone(1), 0.1, false)).toBe(MIN_BUDGET_SCALE);
  });

  it('grows an idle host’s budget a little each time only while it holds some peer under its usual rate', () => {
    expect(adaptBudget(1, alone(BUSY_LOW - 0.01), 1, true)).toBeCloseTo(1.15);
    expect(adaptBudget(1, alone(0.1), 0.3, false)).toBe(1);
    let scale = 1;
    for (let i = 0; i < 50; i++) scale = adaptBudget(scale, alone(0), scale, true);
    expect(scale).toBe(MAX_BUDGET_SCALE);
  });

  it('neither cuts nor grows for a host whose loop waits on a core other processes hold', () => {
    // It used little of the core, so cutting its packets would not give the core back to it.
    expect(adaptBudget(0.8, { cpu: 0.45, loop: 1 }, 0.8, true)).toBe(0.8);
  });

  it('holds between its marks, and ignores a reading that is no number', () => {
    for (const busy of [BUSY_LOW, 0.75, BUSY_HIGH]) {
      expect(adaptBudget(0.8, alone(busy), 0.8, true)).toBe(0.8);
    }
    expect(adaptBudget(0.8, { cpu: NaN, loop: 0 }, 0.8, true)).toBe(0.8);
    expect(adaptBudget(0.8, { cpu: 0, loop: NaN }, 0.8, true)).toBe(0.8);
  });
});
