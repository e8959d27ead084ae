/** The report page's stylesheet (inline: the page loads nothing). */
export const REPORT_CSS = `
:root { --deny: #c62828; --ask: #e08600; --block: #6a1b9a; --allow: #2e7d32; --none: #90a4ae; --ink: #1d2430; --muted: #5f6b7a; --line: #dde3ea; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1040px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 14px; margin: 16px 0 6px; }
code { font: 12.5px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; word-break: break-all; }
.facts, .note, .empty, footer { color: var(--muted); } .empty { font-style: italic; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-left-width: 4px; border-radius: 4px; padding: 6px 12px; min-width: 92px; }
.card dt { font-size: 12px; color: var(--muted); } .card dd { margin: 0; font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card.o-deny { border-left-color: var(--deny); } .card.o-ask { border-left-color: var(--ask); } .card.o-block { border-left-color: var(--block); }
.card.o-allow { border-left-color: var(--allow); } .card.o-none { border-left-color: var(--none); } .card.alert { border-left-color: var(--deny); background: #fff5f5; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } td.zero { color: #b8c1cc; }
td.key { max-width: 560px; } td.time { white-space: nowrap; } tr.more td { color: var(--muted); font-style: italic; }
table.recent td { font-size: 12.5px; }
.o-deny { fill: var(--deny); } .o-ask { fill: var(--ask); } .o-block { fill: var(--block); } .o-allow { fill: var(--allow); } .o-none { fill: var(--none); }
.o-text-deny { color: var(--deny); } .o-text-ask { color: var(--ask); } .o-text-block { color: var(--block); } .o-text-allow { color: var(--allow); } .o-text-none { color: var(--muted); }
svg.timeline { width: 100%; height: auto; display: block; } svg .grid { stroke: var(--line); } svg .axis { font-size: 11px; fill: var(--muted); } svg .hit { fill: transparent; }
.legend span { margin-right: 14px; font-size: 12px; color: var(--muted); }
.esc { color: var(--deny); background: #fdecea; border-radius: 2px; padding: 0 2px; font-family: ui-monospace, monospace; }
li.alert, p.alert { color: var(--deny); }
footer { margin-top: 32px; font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
`;
