/**
 * The timeline page's inline style sheet and script, kept apart from the markup so the renderer
 * reads as structure. The script only links a bar to its row in the calls table; the page works
 * without it.
 */

/** The page's styles: one colour per outcome class, open bars hatched, wrong ones outlined red. */
export const TIMELINE_CSS = `
:root { --label-w: 110px; --bar-h: 30px; font-family: system-ui, sans-serif; color: #1d2330; }
body { margin: 0 auto; padding: 16px 24px; max-width: 1400px; background: #fafbfc; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 18px 0 8px; } h3 { font-size: 14px; margin: 10px 0 4px; }
.meta, .scope, .description { margin: 2px 0; color: #4a5466; font-size: 13px; }
.status { font-size: 12px; padding: 2px 8px; border-radius: 10px; vertical-align: middle; color: #fff; background: #6b7280; }
.s-failed { background: #c62828; } .s-passed { background: #2e7d32; }
.verdict { border: 1px solid #d0d5dd; border-left: 5px solid #6b7280; background: #fff; padding: 6px 14px 10px; border-radius: 4px; font-size: 13px; }
.verdict.illegal { border-left-color: #c62828; } .verdict.order { border-left-color: #2e7d32; }
.order { margin: 4px 0; padding-left: 22px; } .order li { margin: 1px 0; }
.place { font-family: ui-monospace, monospace; font-size: 12px; background: #eef1f5; padding: 0 4px; border-radius: 3px; }
.got { color: #374151; } .want { color: #2e7d32; } .rule { font-weight: 600; color: #c62828; }
.rule-text { margin: 3px 0 0 12px; color: #5b1a1a; }
.stuck-list { list-style: none; padding-left: 4px; } .stuck-item { margin: 4px 0; } .stuck-item.blamed { font-weight: 500; }
.legend { font-size: 12px; color: #4a5466; }
.swatch, .tick-sample { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin: 0 3px 0 8px; vertical-align: middle; }
.tick-sample { width: 3px; }
.chart { position: relative; background: #fff; border: 1px solid #d0d5dd; border-radius: 4px; padding: 4px 8px 8px; }
.lane, .axis { display: flex; border-bottom: 1px dashed #e3e6ea; }
.lane-label { flex: 0 0 var(--label-w); font-size: 12px; font-weight: 600; padding-top: 8px; }
.track { position: relative; flex: 1; height: calc(var(--tracks, 1) * var(--bar-h) + 6px); }
.axis-track { height: 18px; font-size: 11px; color: #6b7280; }
.axis-track span { position: absolute; transform: translateX(-2px); white-space: nowrap; }
.bar { position: absolute; height: calc(var(--bar-h) - 6px); margin-top: 3px; border-radius: 3px; box-sizing: border-box; border: 1px solid rgba(0,0,0,.25); overflow: hidden; cursor: pointer; min-width: 4px; }
.bar-text { position: relative; z-index: 1; font-size: 11px; line-height: calc(var(--bar-h) - 8px); padding: 0 4px; white-space: nowrap; }
.bar.open { border-right: none; -webkit-mask-image: linear-gradient(to right, #000 70%, rgba(0,0,0,.25)); mask-image: linear-gradient(to right, #000 70%, rgba(0,0,0,.25)); border-style: dashed; }
.bar.wrong { outline: 3px solid #c62828; outline-offset: -1px; }
.bar.stuck { box-shadow: 0 0 0 2px #fff, 0 0 0 4px #c62828; }
.stuck-badge { background: #c62828; color: #fff; padding: 0 3px; border-radius: 2px; }
.o-fresh { background: #a5d6a7; } .o-replayed { background: #90caf9; } .o-refused { background: #ffe082; }
.o-keyReuse { background: #ffcc80; } .o-invalid { background: #e0e0e0; } .o-error { background: #ef9a9a; }
.o-unexpected { background: #f48fb1; } .o-notSent { background: #eceff1; } .o-lost, .o-crashed { background: #cfd8dc; }
.o-hang { background: #b39ddb; } .o-world { background: #d7ccc8; } .o-unknown { background: #f5f5f5; }
.wrong-swatch { background: #fff; outline: 3px solid #c62828; outline-offset: -3px; }
.tick { position: absolute; top: 0; bottom: 0; width: 2px; background: rgba(0,0,0,.35); }
.t-blocked { background: #ff6f00; width: 4px; } .t-fault { background: #d50000; width: 4px; }
.t-crash { background: #000; width: 5px; } .t-commit { background: #1b5e20; width: 3px; } .t-failed { background: #e65100; }
.marker { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dotted #ff6f00; }
table { border-collapse: collapse; background: #fff; font-size: 12px; width: 100%; }
th, td { border: 1px solid #e3e6ea; padding: 4px 6px; text-align: left; vertical-align: top; }
pre { margin: 2px 0; white-space: pre-wrap; font-size: 11px; }
.statements { margin: 0; padding-left: 18px; } .statements li { margin-bottom: 2px; }
.statements .grant { font-family: ui-monospace, monospace; font-size: 11px; color: #4a5466; }
.statements li.t-blocked, .statements li.t-fault, .statements li.t-crash, .statements li.t-commit, .statements li.t-failed, .statements li.t-run { background: none; width: auto; }
.wrong-row { background: #fff3f3; } .stuck-row td:first-child { border-left: 4px solid #c62828; }
.params { font-family: ui-monospace, monospace; font-size: 11px; color: #1b4f9c; margin-left: 4px; }
.note { color: #8a4b00; } tr.flash { background: #fff8c4; }
#reproduce pre { background: #fff; border: 1px solid #d0d5dd; padding: 8px; font-size: 12px; }
`;

/** Clicking a bar scrolls to its call's row and flashes it. */
export const TIMELINE_SCRIPT = `
document.querySelectorAll('.bar').forEach(function (bar) {
  bar.addEventListener('click', function () {
    var row = document.getElementById(bar.getAttribute('data-target'));
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    row.classList.add('flash');
    setTimeout(function () { row.classList.remove('flash'); }, 1200);
  });
});
`;
