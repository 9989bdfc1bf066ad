import { describe, expect, it } from 'vitest';
import type { ConnectionStats, StatsSnapshot } from '../../shared/api';
import {
  bandwidthWords,
  impairmentText,
  nearestText,
  probedHostText,
  trafficMix,
} from './bandwidth-words';

function link(over: Partial<ConnectionStats> = {}): ConnectionStats {
  return {
    peer: 1,
    name: 'Ana',
    rttMs: 30,
    lossPct: 0,
    kbpsIn: 20,
    kbpsOut: 30,
    packetsPerSecondIn: 20,
    packetsPerSecondOut: 30,
    inFlight: 1,
    windowSize: 32,
    packetsPerSecond: 30,
    packetBytes: 400,
    allowedKbps: 200,
    estimatedKbps: 500,
    byKind: [
      { kind: 'headers + crypto', kbpsIn: 5, kbpsOut: 5 },
      { kind: 'presence', kbpsIn: 10, kbpsOut: 20 },
      { kind: 'events', kbpsIn: 5, kbpsOut: 5 },
    ],
    ...over,
  };
}

const snap = (peers: ConnectionStats[], lossPct = 0): StatsSnapshot => ({
  at: 1000,
  totalKbpsIn: peers.reduce((a, p) => a + p.kbpsIn, 0),
  totalKbpsOut: peers.reduce((a, p) => a + p.kbpsOut, 0),
  peers,
  conditions: { lossPct, delayMs: 0, kbps: 0 },
});

describe('bandwidthWords', () => {
  it('says what is sent, in words, biggest share first', () => {
    const w = bandwidthWords(snap([link()]));
    expect(w.tone).toBe('good');
    expect(w.headline).toBe('The connection keeps up');
    expect(w.lines[0]).toBe('Sending 30 kbit/s and receiving 20 kbit/s, to and from Ana.');
    expect(w.lines[1]).toBe(
      'Mostly pointers and live drags (60 %), then packet overhead (20 %), then edits and chat (20 %).',
    );
  });

  it('reports what the network dropped, by name, and calls heavy loss struggling', () => {
    const w = bandwidthWords(snap([link(), link({ peer: 2, name: 'Ben', lossPct: 12.4 })]));
    expect(w.tone).toBe('bad');
    expect(
      w.lines.some((l) => l.startsWith('The network dropped 12 % of the packets to Ben')),
    ).toBe(true);
    expect(w.lines[0]).toContain('to and from 2 people');
    expect(w.lines.some((l) => l.includes('Ana'))).toBe(false); // a link that is fine goes unmentioned
  });

  it('calls a link full when the app sends at the rate the link allows', () => {
    const w = bandwidthWords(snap([link({ kbpsOut: 15.5, allowedKbps: 16 })]));
    expect(w.tone).toBe('bad');
    expect(w.lines.some((l) => l.startsWith('The link to Ana is full at about 16 kbit/s'))).toBe(
      true,
    );
  });

  it('a slow link is a warning, not a failure', () => {
    const w = bandwidthWords(snap([link({ rttMs: 250 })]));
    expect(w.tone).toBe('warn');
    expect(w.lines.some((l) => l.includes('a round trip takes 250 ms'))).toBe(true);
  });

  it('says when the conditions are simulated, and when nothing is measured yet', () => {
    expect(bandwidthWords(null).tone).toBe('idle');
    expect(bandwidthWords(snap([], 10)).lines).toEqual([
      'Simulated network conditions are on: 10 % loss.',
    ]);
    expect(impairmentText({ lossPct: 5, delayMs: 200, kbps: 64 })).toBe(
      '5 % loss · +200 ms · 64 kbit/s cap',
    );
    expect(impairmentText({ lossPct: 0, delayMs: 0, kbps: 0 })).toBeNull();
  });

  it('the mix is empty with no traffic', () => {
    expect(trafficMix([link({ byKind: [] })])).toEqual([]);
  });

  it('says the nearest of several hosts was joined, with its round trip; one host says nothing of it', () => {
    const nearest = {
      hosts: [
        { address: '198.51.100.1:7350', rttMs: 121.4, incompatible: false },
        { address: '198.51.100.2:7350', rttMs: 11.6, incompatible: false },
        { address: '198.51.100.3:7350', rttMs: null, incompatible: false },
        { address: '198.51.100.4:7350', rttMs: 4, incompatible: true },
      ],
      chosen: 1,
    };
    const w = bandwidthWords({ ...snap([link()]), nearest });
    expect(w.lines[0]).toBe('Connected to the nearest host (12 ms).');
    expect(w.lines[1]).toBe('Sending 30 kbit/s and receiving 20 kbit/s, to and from Ana.');
    expect(nearest.hosts.map(probedHostText)).toEqual([
      '121 ms',
      '12 ms',
      'no answer',
      '4 ms · another version',
    ]);
    const one = {
      hosts: [{ address: '198.51.100.2:7350', rttMs: 11.6, incompatible: false }],
      chosen: 0,
    };
    expect(nearestText(one)).toBeNull();
    expect(nearestText({ ...nearest, chosen: null })).toBeNull();
    expect(bandwidthWords(snap([link()])).lines[0]).toMatch(/^Sending/);
  });
});
