/**
 * Draws a timeline (`timeline.ts`) as one self-contained HTML page: inline styles and a few lines
 * of inline script, no network. The last, thin step: every fact on the page comes from the data,
 * and every piece of text is escaped here. Lanes are rows; a bar too close to the one before it
 * in its lane goes on a second track, so an open-ended call never hides the calls after it.
 */
import type { OrderItem, Timeline, TimelineBar, TimelineTick } from './timeline.ts';
import { TIMELINE_CSS, TIMELINE_SCRIPT } from './timeline-assets.ts';

/** The page. */
export function renderTimelineHtml(t: Timeline): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t.title)}</title>
<style>${TIMELINE_CSS}</style>
</head>
<body>
<header>
<h1>${esc(t.title)} <span class="status s-${cls(t.status)}">${esc(t.status)}</span></h1>
<p class="meta">handler <b>${esc(t.handlerName)}</b> · ${esc(t.mode)} mode · axis in ${esc(unitName(t.axis.unit))}</p>
${t.description ? `<p class="description">${esc(t.description)}</p>` : ''}
${t.scope ? `<p class="scope">${esc(t.scope)}</p>` : ''}
</header>
${verdict(t)}
<section id="timeline"><h2>Timeline</h2>
${legend()}
<div class="chart">${axis(t)}${t.lanes.map((lane) => laneRow(t, lane.key, lane.label)).join('\n')}${markers(t)}</div>
</section>
<section id="failures"><h2>What broke</h2>
${t.failures.length === 0 ? `<p>${t.status === 'not run' ? 'nothing judged: the file records no run' : 'nothing: every outcome, the database and every invariant agree'}</p>` : `<ul>${t.failures.map((f) => `<li><b>${esc(f.where)}</b>${f.rule ? ` <span class="rule">rule ${esc(f.rule)}</span>` : ''}: ${esc(f.text)}</li>`).join('')}</ul>`}${t.triage ? `<p class="triage">${esc(t.triage)}</p>` : ''}
</section>
${database(t)}
<section id="calls"><h2>Calls and statements</h2>
<table class="calls"><thead><tr><th>#</th><th>where</th><th>call</th><th>outcome</th><th>statements</th></tr></thead>
<tbody>${t.bars.map(callRow).join('\n')}</tbody></table>
</section>
<section id="reproduce"><h2>Reproduce</h2><pre>${esc(t.reproduce.join('\n') || 'no commands recorded')}</pre></section>
<script>${TIMELINE_SCRIPT}</script>
</body>
</html>
`;
}

function verdict(t: Timeline): string {
  const v = t.verdict;
  const order = (items: readonly OrderItem[]) =>
    `<ol class="order">${items.map((o) => `<li${o.expected ? ' class="wrong-item"' : ''}><span class="place">${esc(o.place)}</span> ${esc(o.label)}${o.outcome ? ` <span class="got">→ ${esc(o.outcome)}</span>` : ''}${o.expected ? ` <span class="want">the contract gives ${esc(o.expected)}</span>` : ''}</li>`).join('')}</ol>`;
  switch (v.kind) {
    case 'illegal':
      return `<section id="verdict" class="verdict illegal"><h2>No serial order explains what the clients saw</h2>
<p>${esc(v.text)}</p>
<h3>The longest order that fits${v.orderLength > v.order.length ? ` (its last ${v.order.length} of ${v.orderLength})` : ''}</h3>
${v.order.length > 0 ? order(v.order) : '<p>not even the first operation fits</p>'}
<h3>Could not come next</h3>
<ul class="stuck-list">${v.stuck.map((s) => `<li class="stuck-item${s.blamed ? ' blamed' : ''}"><span class="place">${esc(s.place)}</span> ${esc(s.label)}${s.outcome ? ` <span class="got">got ${esc(s.outcome)}</span>` : ''}${s.expected ? ` <span class="want">the contract gives ${esc(s.expected)}</span>` : ''}${s.ruleText ? `<div class="rule-text">${s.rule ? `<span class="rule">rule ${esc(s.rule)}</span> ` : ''}${esc(s.ruleText)}</div>` : ''}</li>`).join('')}</ul>
</section>`;
    case 'unknown':
      return `<section id="verdict" class="verdict unknown"><h2>No verdict</h2><p>${esc(v.text)}</p></section>`;
    case 'order':
      return `<section id="verdict" class="verdict order"><h2>Serial order</h2><p>${esc(v.text)}</p>${order(v.order)}</section>`;
    case 'notRun':
      return `<section id="verdict" class="verdict not-run"><h2>Not run</h2><p>${esc(v.text)}</p></section>`;
  }
}

function legend(): string {
  const items = [
    ['fresh', 'fresh ok'],
    ['replayed', 'replayed'],
    ['refused', 'refused'],
    ['keyReuse', 'key reuse'],
    ['invalid', 'invalid'],
    ['error', 'error'],
    ['unexpected', 'unexpected'],
    ['lost', 'no answer'],
    ['world', 'world event'],
  ];
  return `<p class="legend">${items.map(([k, v]) => `<span class="swatch o-${k}"></span>${esc(v ?? '')}`).join(' ')} <span class="swatch wrong-swatch"></span>differs from the contract <span class="tick-sample t-blocked"></span>lock wait <span class="tick-sample t-fault"></span>fault <span class="tick-sample t-crash"></span>crash <span class="tick-sample t-commit"></span>commit</p>`;
}

function axis(t: Timeline): string {
  const { start, end, unit } = t.axis;
  const labels: string[] = [];
  const label = (at: number, text: string) =>
    labels.push(`<span style="left:${pct(t, at).toFixed(3)}%">${esc(text)}</span>`);
  const slots = Math.round(end - start);
  if (unit === 'ms')
    for (let i = 0; i < 5; i++) {
      const at = start + ((end - start) * i) / 5;
      label(at, `${at.toFixed(at < 10 ? 2 : 0)} ms`);
    }
  else {
    // One label per step or grant while they fit, else every n-th.
    const every = Math.max(1, Math.ceil(slots / 24));
    for (let i = 0; i < slots; i += every)
      // A grant's label sits over its middle, where its ticks are drawn.
      label(
        start + i + (unit === 'grant' ? 0.5 : 0),
        unit === 'step' ? `step ${i + 1}` : `#${i + 1}`,
      );
  }
  return `<div class="axis"><div class="lane-label"></div><div class="track axis-track">${labels.join('')}</div></div>`;
}

function laneRow(t: Timeline, key: number, label: string): string {
  const bars = t.bars.filter((b) => b.row === key);
  const trackEnds: number[] = [];
  const placed = bars.map((b) => {
    let track = trackEnds.findIndex((endAt) => endAt <= b.start);
    if (track < 0) {
      track = trackEnds.length;
      trackEnds.push(0);
    }
    trackEnds[track] = b.open ? Number.POSITIVE_INFINITY : b.end;
    return { b, track };
  });
  const tracks = Math.max(1, trackEnds.length);
  return `<div class="lane" data-lane="${esc(label)}" style="--tracks:${tracks}"><div class="lane-label">${esc(label)}</div><div class="track">${placed.map(({ b, track }) => bar(t, b, track)).join('')}</div></div>`;
}

function bar(t: Timeline, b: TimelineBar, track: number): string {
  const left = pct(t, b.start);
  const end = b.open ? t.axis.end : b.end;
  const width = Math.max(0.8, pct(t, end) - left);
  const classes = [
    'bar',
    `o-${cls(b.outcomeClass)}`,
    b.open ? 'open' : '',
    b.wrong ? 'wrong' : '',
    b.stuck ? 'stuck' : '',
  ].filter(Boolean);
  const title = [
    `${b.place}: ${b.label}`,
    b.outcome ? `→ ${b.outcome}` : '',
    b.expected ? `expected ${b.expected}` : '',
    b.rule ? `rule ${b.rule}: ${b.ruleText ?? ''}` : (b.ruleText ?? ''),
    ...b.notes,
  ]
    .filter(Boolean)
    .join('\n');
  const span = Math.max(end - b.start, 1e-9);
  const ticks = b.ticks
    .map((k) => {
      const at = Math.min(100, Math.max(0, ((k.at + 0.5 - b.start) / span) * 100));
      return `<span class="tick t-${tickClass(k)}" style="left:${at.toFixed(2)}%" title="${esc(tickTitle(k))}"></span>`;
    })
    .join('');
  return `<div class="${classes.join(' ')}" id="bar-${b.id}" data-target="call-${b.id}" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%;top:calc(${track} * var(--bar-h))" title="${esc(title)}">${ticks}<span class="bar-text">${b.stuck ? '<b class="stuck-badge">stuck</b> ' : ''}${esc(b.place)} · ${esc(b.outcome ?? b.label)}</span></div>`;
}

function markers(t: Timeline): string {
  return t.markers
    .map(
      (m) =>
        `<div class="marker" style="left:calc(var(--label-w) + (100% - var(--label-w)) * ${(pct(t, m.at) / 100).toFixed(4)})" title="${esc(m.label)}"></div>`,
    )
    .join('');
}

function database(t: Timeline): string {
  const d = t.database;
  const rows = d.rows
    .map(
      (r) =>
        `<tr><td>${esc(r.what)}</td><td>${esc(r.key)}</td><td><pre>${esc(r.expected ?? '—')}</pre></td><td><pre>${esc(r.found ?? '—')}</pre></td></tr>`,
    )
    .join('');
  return `<section id="database"><h2>Database at the end (expected vs found)</h2><p class="db-summary">${esc(d.summary)}</p>${rows ? `<table><thead><tr><th>what</th><th>key</th><th>expected</th><th>found</th></tr></thead><tbody>${rows}</tbody></table>` : ''}</section>`;
}

function callRow(b: TimelineBar): string {
  const outcome = [
    b.outcome ? `<div class="got">${esc(b.outcome)}</div>` : '',
    b.expected ? `<div class="want">expected ${esc(b.expected)}</div>` : '',
    b.ruleText
      ? `<div class="rule-text">${b.rule ? `<span class="rule">rule ${esc(b.rule)}</span> ` : ''}${esc(b.ruleText)}</div>`
      : '',
    ...b.notes.map((n) => `<div class="note">↯ ${esc(n)}</div>`),
  ].join('');
  const statements = b.ticks.length
    ? `<ol class="statements">${b.ticks.map((k) => `<li class="t-${tickClass(k)}"><span class="grant">#${k.at + 1} ${esc(k.point)}${k.grant !== 'run' ? ` ${esc(k.grant)}` : ''}${k.result && k.result !== 'ok' ? ` [${esc(k.result)}]` : ''}${k.durable ? ' [commit]' : ''}</span>${k.sql ? `<pre>${esc(k.sql)}</pre>` : ''}${k.params ? `<div class="params">parameters: ${esc(k.params.join(', '))}</div>` : ''}</li>`).join('')}</ol>`
    : '';
  return `<tr id="call-${b.id}" class="${b.wrong ? 'wrong-row' : ''}${b.stuck ? ' stuck-row' : ''}"><td>${b.id}</td><td>${esc(b.place)}</td><td>${esc(b.label)}</td><td>${outcome}</td><td>${statements}</td></tr>`;
}

function tickClass(k: TimelineTick): string {
  if (k.grant === 'crash') return 'crash';
  if (k.grant === 'fault') return 'fault';
  if (k.grant === 'giveUp' || k.result === 'blocked') return 'blocked';
  if (k.durable) return 'commit';
  if (k.result && k.result !== 'ok') return 'failed';
  return 'run';
}

function tickTitle(k: TimelineTick): string {
  return `#${k.at + 1} ${k.label}${k.sql && k.sql !== k.label ? `\n${k.sql}` : ''}${k.params ? `\nparameters: ${k.params.join(', ')}` : ''}`;
}

function pct(t: Timeline, at: number): number {
  const span = t.axis.end - t.axis.start;
  return span > 0 ? ((at - t.axis.start) / span) * 100 : 0;
}

function unitName(u: Timeline['axis']['unit']): string {
  return u === 'step'
    ? 'steps (no clock recorded)'
    : u === 'ms'
      ? 'ms of the run'
      : 'scheduler grants';
}

/** A safe class-name fragment. */
function cls(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** Escapes text for HTML content and double-quoted attributes. */
export function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
