/**
 * Soak traffic under a declared expiry: clock advances join the world events, sized as generated
 * runs size them (about 2/5 of the lifetime, or 1.5 times it), and a plugin that declares no
 * expiry gets exactly the traffic it got before (no random draw is spent on time). Pure: the
 * traffic is a seeded stream, so the counts are the same on every machine.
 */
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import { createSoakTraffic, nextOperation, type SoakTrafficOptions } from './soak-traffic.ts';

const HOUR = 3_600_000;

/** The first `n` operations of client 0 (every call answered `ok`, as if nothing failed). */
function traffic(options: SoakTrafficOptions, n = 3000): Event[] {
  const t = createSoakTraffic(DEFAULT_FIXTURE, setIntervalSpec, 2, 7, options);
  return Array.from({ length: n }, () => nextOperation(t, 0));
}

describe('soak traffic and the clock', () => {
  it('advances the clock under a declared expiry, on both sides of the lifetime', () => {
    const advances = traffic({ clockLifetime: HOUR }).filter((e) => e.kind === 'clockAdvance');
    expect(advances.length).toBeGreaterThan(5);
    expect(new Set(advances.map((e) => (e.kind === 'clockAdvance' ? e.ms : 0)))).toEqual(
      new Set([(HOUR * 2) / 5, HOUR * 1.5]),
    );
  });

  it('never moves the clock without one, and leaves that traffic as it was', () => {
    const plain = traffic({});
    expect(plain.some((e) => e.kind === 'clockAdvance')).toBe(false);
    expect(traffic({ worldEvents: true })).toEqual(plain);
  });

  it('sends no clock advance when world events are off', () => {
    expect(
      traffic({ clockLifetime: HOUR, worldEvents: false }).some((e) => e.kind === 'clockAdvance'),
    ).toBe(false);
  });
});
