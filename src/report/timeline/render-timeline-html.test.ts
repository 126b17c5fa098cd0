/**
 * The HTML page: self-contained (no script, style or image fetched from anywhere), every piece of
 * text escaped, and the lanes, bars, stuck calls and rules of the data all on it.
 */
import { describe, expect, it } from 'vitest';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { buildTimeline } from './build-timeline.ts';
import { esc, renderTimelineHtml } from './render-timeline-html.ts';

const hostile = '<script>alert("x")</script>';

describe('renderTimelineHtml', () => {
  const page = renderTimelineHtml(
    buildTimeline({
      name: `case ${hostile}`,
      description: hostile,
      handlerName: hostile,
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      steps: [
        {
          kind: 'call',
          client: 0,
          request: { requestId: hostile, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
          delivery: 'delivered',
        },
      ],
      failures: [
        {
          kind: 'outcome',
          step: 0,
          lane: 0,
          event: {
            kind: 'call',
            client: 0,
            request: {
              requestId: hostile,
              automationId: 1,
              expectedVersion: 1,
              intervalMinutes: 30,
            },
            delivery: 'delivered',
          },
          expected: { kind: 'invalid', field: 'requestId' },
          actual: { kind: 'unexpected', message: hostile },
        },
      ],
    }),
  );

  it('escapes every piece of text: the only script is its own', () => {
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).not.toContain('alert("x")');
    expect(page).toContain('&lt;script&gt;');
  });

  it('fetches nothing: no external source, link or import', () => {
    expect(page).not.toMatch(/\s(src|href)=/);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/@import|url\(/);
  });

  it('draws a lane per connection and a bar per call, the wrong one outlined with its rule', () => {
    expect(page.match(/class="lane"/g)).toHaveLength(1);
    expect(page).toMatch(/class="bar o-unexpected wrong"/);
    expect(page).toContain('rule 2');
  });

  it('escapes quotes for attributes', () => {
    expect(esc(`a"b'c&<>`)).toBe('a&quot;b&#39;c&amp;&lt;&gt;');
  });
});
