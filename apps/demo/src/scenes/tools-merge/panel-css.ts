// The merge panel's styles, added while the scene is open. A is cyan and B violet everywhere
// (table, line view, map outlines); green added, red removed, amber changed, orange conflict.
export const PANEL_CSS = `
.merge-panel{display:flex;flex-direction:column;gap:0.5rem;font-size:13px}
.merge-panel p{margin:0}
.merge-intro{color:#aeb3c2}
.merge-bar{display:flex;gap:0.4rem}
.merge-bar button,.merge-diff button{font:inherit;padding:0.2rem 0.7rem;border-radius:4px;border:1px solid #3a4156;background:#1d2230;color:#d8dbe6;cursor:pointer}
.merge-diff button{padding:0.05rem 0.45rem;font-size:12px}
.merge-diff button[aria-pressed=true]{background:#2c4a2f;border-color:#4c8a52}
.merge-summary{font-family:ui-monospace,monospace;font-size:12px;padding:0.3rem 0.5rem;border-radius:4px;background:#16241b;color:#b9e6c0}
.merge-summary.has-open{background:#2e2112;color:#ffc98f}
.merge-legend span{display:inline-block;padding:0 0.45rem;margin-right:0.3rem;border-radius:3px;font-size:12px}
.merge-diff{border-collapse:collapse;width:100%;font-size:12px;table-layout:fixed}
.merge-diff th{text-align:left;color:#8d93a1;font-weight:500;border-bottom:1px solid #2a3042;padding:0.2rem 0.3rem}
.merge-diff td{vertical-align:top;padding:0.25rem 0.3rem;border-bottom:1px solid #1e2331;font-family:ui-monospace,monospace;word-break:break-word}
.merge-diff td.field code{display:block;color:#e6e8ef}
.merge-diff td small{display:block;color:#9aa0ae;font-family:system-ui,sans-serif}
.merge-diff td.empty{color:#8d93a1;font-family:system-ui,sans-serif}
.merge-diff td button{display:block;margin:0.25rem 0 0}
.merge-diff th:first-child{width:23%}
.merge-diff th:nth-child(2),.merge-diff th:last-child{width:18%}
.merge-diff .value.absent{color:#6c7283;font-style:italic}
.merge-diff .swatch{display:inline-block;width:0.8em;height:0.8em;margin-right:0.3em;border-radius:2px;vertical-align:-0.1em;border:1px solid #0006}
.merge-diff td.same{opacity:0.45}
.merge-legend .added,.merge-diff tr.added td{background:#15301c}
.merge-legend .removed,.merge-diff tr.removed td{background:#3a1719}
.merge-legend .changed,.merge-diff tr.changed td{background:#2c2610}
.merge-legend .conflict,.merge-diff tr.conflict.open td{background:#47290d}
.merge-diff tr.conflict.resolved td{background:#172a1c}
.merge-legend .side-a,.merge-diff tr.from-a td.side-a,.merge-diff tr.from-both td.side-a,.merge-diff tr.conflict td.side-a{box-shadow:inset 3px 0 #4fc2f7}
.merge-legend .side-b,.merge-diff tr.from-b td.side-b,.merge-diff tr.from-both td.side-b,.merge-diff tr.conflict td.side-b{box-shadow:inset 3px 0 #b89ae6}
.merge-diff tr td.picked{background:#25452c}
.merge-diff tr.removed td.merged .value{text-decoration:line-through}
.merge-section summary{cursor:pointer;color:#c3c7d3;margin:0.2rem 0}
.merge-editors{display:grid;grid-template-columns:1fr 1fr;gap:0.5rem}
.merge-editor{display:flex;flex-direction:column;gap:0.2rem;margin:0}
.merge-editor span{color:#aeb3c2}
.merge-editor textarea{font:12px/1.35 ui-monospace,monospace;background:#11141d;color:#d8dbe6;border:1px solid #2a3042;border-radius:4px;padding:0.3rem;resize:vertical}
.merge-error{color:#ff9c9c;font-size:12px;min-height:0}
.merge-text{font:11px/1.35 ui-monospace,monospace;max-height:18rem;overflow:auto;background:#11141d;padding:0.4rem;border-radius:4px;margin:0}
.merge-lines{font:11px/1.4 ui-monospace,monospace;white-space:pre;overflow:auto;max-height:22rem;background:#11141d;padding:0.3rem 0;border-radius:4px}
.merge-lines .line{display:flex}
.merge-lines .tag{flex:none;width:2.6em;text-align:center;font-size:10px;color:#0d0f17;margin-right:0.3em}
.merge-lines .same{color:#7d8394}
.merge-lines .add{background:#15301c;color:#b9f0c4}
.merge-lines .remove{background:#3a1719;color:#f3b3b3;text-decoration:line-through}
.merge-lines .left .tag{background:#4fc2f7}
.merge-lines .right .tag{background:#b89ae6}
.merge-lines .both .tag{background:#d8dbe6}
.merge-lines .conflict .tag{background:#ff9d3d}
.merge-map-legend{font-size:12px;color:#8d93a1}
`;
