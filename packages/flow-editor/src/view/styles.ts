// The view's stylesheet, put inside its root element (nothing global). Sizes here must match
// geometry.ts: NODE_WIDTH 180, NODE_HEADER 24, PIN_ROW 20, NODE_PADDING 6.
export const VIEW_CSS = `
.cfe-root{position:relative;overflow:hidden;background:#1b1d23;color:#d8dbe2;font:12px/1.2 system-ui,sans-serif;user-select:none;touch-action:none;outline:none}
.cfe-root:focus-visible{box-shadow:inset 0 0 0 2px #4a8fe0}
.cfe-layer{position:absolute;left:0;top:0;transform-origin:0 0;will-change:transform}
.cfe-canvas{position:absolute;left:0;top:0;pointer-events:none}
.cfe-node{position:absolute;left:0;top:0;width:180px;box-sizing:border-box;background:#2a2d35;border:1px solid #444955;border-radius:6px;contain:layout style}
.cfe-node{outline:2px solid transparent;outline-offset:2px;transition:outline-color .6s ease-out}
.cfe-node:focus{outline-color:transparent}
.cfe-node:focus-visible{border-color:#4a8fe0}
.cfe-node.cfe-selected{border-color:#f0b429;box-shadow:0 0 0 1px #f0b429}
.cfe-node.cfe-has-issues{border-color:#ff5a4e}
.cfe-title{height:24px;box-sizing:border-box;padding:5px 22px 0 8px;background:#373b46;border-radius:5px 5px 0 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:600}
.cfe-title small{font-weight:400;color:#8d93a1;margin-left:6px}
.cfe-cat-event .cfe-title{background:#6b2a2a}.cfe-cat-logic .cfe-title{background:#3d3f6b}.cfe-cat-math .cfe-title{background:#2f5a3a}.cfe-cat-variable .cfe-title{background:#5a4a22}.cfe-cat-action .cfe-title{background:#22506b}
.cfe-row{position:relative;height:20px;white-space:nowrap}
.cfe-in-label,.cfe-out-label{position:absolute;top:3px;max-width:84px;overflow:hidden;text-overflow:ellipsis}
.cfe-in-label{left:12px}.cfe-out-label{right:12px;text-align:right}
.cfe-const{color:#9ccf3c;margin-left:4px}
.cfe-pin{position:absolute;top:5px;width:10px;height:10px;box-sizing:border-box;border-radius:50%;border:2px solid var(--c);background:#1b1d23}
.cfe-pin[data-kind=event]{border-radius:2px;transform:rotate(45deg)}
.cfe-pin.cfe-linked{background:var(--c)}
.cfe-pin-in{left:-6px}.cfe-pin-out{right:-6px}
.cfe-pin.cfe-ok{box-shadow:0 0 0 4px #3fbf6f}
.cfe-pin.cfe-refused{box-shadow:0 0 0 4px #ff5a4e}
.cfe-pin.cfe-pin-issue{box-shadow:0 0 0 2px #ff5a4e}
.cfe-issue{position:absolute;right:4px;top:4px;width:16px;height:16px;border-radius:50%;background:#ff5a4e;color:#fff;font-weight:700;text-align:center;line-height:16px}
.cfe-issue-text{display:none;position:absolute;left:0;top:100%;margin-top:4px;width:260px;padding:6px;background:#3a1f1f;border:1px solid #ff5a4e;border-radius:4px;white-space:normal;z-index:2}
.cfe-node:hover .cfe-issue-text,.cfe-node:focus .cfe-issue-text,.cfe-node:focus-within .cfe-issue-text{display:block}
.cfe-node.cfe-ran{outline-color:#ffd166;transition:none}
.cfe-node.cfe-ran .cfe-title{color:#fff3c4}
.cfe-node[data-runs]:hover::after{content:'ran ' attr(data-runs) '×';position:absolute;left:0;bottom:100%;margin-bottom:3px;padding:1px 6px;border-radius:3px;background:#3a3220;color:#ffd166;font-size:11px;white-space:nowrap;pointer-events:none}
.cfe-bp{display:inline-block;width:9px;height:9px;box-sizing:border-box;margin:0 5px 0 -3px;vertical-align:-1px;border-radius:50%;border:1px solid transparent;cursor:pointer}
.cfe-node:hover .cfe-bp,.cfe-node:focus .cfe-bp{border-color:#8d93a1}
.cfe-node.cfe-breakpoint .cfe-bp{background:#e5484d;border-color:#e5484d}
.cfe-node.cfe-paused{border-color:#ffb224;box-shadow:0 0 0 2px #ffb224}
.cfe-node.cfe-paused::before{content:'▶ paused';position:absolute;right:0;bottom:100%;margin-bottom:3px;padding:1px 6px;border-radius:3px;background:#ffb224;color:#1b1d23;font-size:11px;font-weight:600;white-space:pre;pointer-events:none}
.cfe-pin-value{display:none;position:absolute;padding:2px 6px;border-radius:3px;background:#11131a;border:1px solid #5a6072;color:#e8eaf0;font:11px/1.3 ui-monospace,monospace;white-space:nowrap;pointer-events:none;z-index:3}
.cfe-comment,.cfe-group{position:absolute;left:0;top:0;box-sizing:border-box;border-radius:6px}
.cfe-comment{background:rgba(240,180,41,.08);border:1px solid rgba(240,180,41,.45)}
.cfe-group{background:rgba(74,143,224,.07);border:1px dashed rgba(74,143,224,.6)}
.cfe-box-header{height:22px;padding:4px 8px;box-sizing:border-box;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:#e5c776;cursor:move}
.cfe-group .cfe-box-header{color:#8fb8ec}
.cfe-comment.cfe-selected,.cfe-group.cfe-selected{border-color:#f0b429;border-style:solid}
.cfe-marquee{position:absolute;border:1px solid #4a8fe0;background:rgba(74,143,224,.15);pointer-events:none;display:none}
.cfe-status{position:absolute;left:8px;bottom:8px;max-width:60%;padding:4px 8px;border-radius:4px;background:rgba(20,20,24,.85);pointer-events:none}
.cfe-status:empty{display:none}
.cfe-status.cfe-refused{color:#ff8a80;border:1px solid #ff5a4e}
.cfe-minimap{position:absolute;right:8px;bottom:8px;border:1px solid #444955;background:rgba(20,20,24,.85);cursor:pointer}
.cfe-palette{position:absolute;width:260px;background:#23262d;border:1px solid #4a8fe0;border-radius:6px;box-shadow:0 6px 18px rgba(0,0,0,.5);z-index:3;display:none}
.cfe-palette input{width:100%;box-sizing:border-box;padding:6px 8px;border:0;border-bottom:1px solid #444955;background:#1b1d23;color:inherit;font:inherit;outline:none}
.cfe-palette ul{list-style:none;margin:0;padding:2px 0;max-height:260px;overflow:auto}
.cfe-palette li{padding:4px 8px;cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.cfe-palette li small{color:#8d93a1;margin-left:6px}
.cfe-palette li[aria-selected=true]{background:#34496b}
`;
