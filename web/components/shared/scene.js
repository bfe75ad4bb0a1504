// scene.js — one drawing, two renderers. A view describes what it draws as a flat list of
// primitives; drawScene() paints it on a <canvas> (the screen and PNG export) and sceneToSvg()
// writes the same list as an SVG file (vector export). No DOM beyond the canvas it is given.
//
//   { width, height, background?, font, items: [
//       { type: 'rect', x, y, w, h, fill?, stroke?, lw?, r? (corner radius), opacity? }
//       { type: 'hatch', x, y, w, h, fill, stroke }           masked cells: diagonal lines
//       { type: 'line', x1, y1, x2, y2, stroke, lw?, opacity?, dash? }
//       { type: 'poly', points: [x0, y0, x1, y1, ...], stroke?, fill?, lw?, opacity?, dash?, close? }
//       { type: 'circle', cx, cy, r, fill?, stroke?, lw?, opacity? }
//       { type: 'text', x, y, text, fill, size?, weight?, anchor?: start|middle|end,
//         baseline?: middle|top|bottom|alphabetic, rotate? (degrees), mono? }
//       { type: 'cells', x, y, cw, ch, rows, cols, rgba: Uint8ClampedArray }  a dense bitmap
//   ] }

const BASELINES = { middle: 'middle', top: 'hanging', bottom: 'text-after-edge', alphabetic: 'alphabetic' };

export function fontString(scene, item) {
  const family = item.mono ? scene.monoFont ?? 'ui-monospace, monospace' : scene.font ?? 'system-ui, sans-serif';
  return `${item.weight ?? 400} ${item.size ?? 12}px ${family}`;
}

let measureCtx = null;
export function measureText(text, size = 12, { weight = 400, family = 'system-ui, sans-serif' } = {}) {
  measureCtx ??= (typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas')).getContext('2d');
  measureCtx.font = `${weight} ${size}px ${family}`;
  return measureCtx.measureText(text).width;
}

// Fills and/or strokes the current path as the item asks (fill, stroke, lw, dash).
function paintPath(ctx, it) {
  if (it.fill) {
    ctx.fillStyle = it.fill;
    ctx.fill();
  }
  if (it.stroke) {
    ctx.strokeStyle = it.stroke;
    ctx.lineWidth = it.lw ?? 1;
    ctx.setLineDash(it.dash ?? []);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  if (r && ctx.roundRect) ctx.roundRect(x, y, w, h, r);
  else ctx.rect(x, y, w, h);
}

// One scratch canvas for every bitmap (creating a canvas and a context per draw is slow).
let scratch = null, scratchCtx = null;
function cellBitmap(it) {
  if (!scratch) {
    scratch = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(it.cols, it.rows) : document.createElement('canvas');
    scratchCtx = scratch.getContext('2d');
  }
  if (scratch.width < it.cols || scratch.height < it.rows) {
    scratch.width = Math.max(scratch.width, it.cols);
    scratch.height = Math.max(scratch.height, it.rows);
  }
  scratchCtx.clearRect(0, 0, it.cols, it.rows);
  scratchCtx.putImageData(new ImageData(it.rgba, it.cols, it.rows), 0, 0);
  return scratch;
}

// The scene with a title line above it (exports carry what the page shows above the canvas).
export function titled(scene, title, { fill, size = 13, weight = 600 } = {}) {
  if (!title) return scene;
  const dy = size + 12;
  const shift = (it) => {
    const o = { ...it };
    for (const k of ['y', 'y1', 'y2', 'cy']) if (typeof o[k] === 'number') o[k] += dy;
    if (o.points) o.points = o.points.map((v, i) => (i % 2 ? v + dy : v));
    return o;
  };
  const head = { type: 'text', x: 8, y: size / 2 + 6, text: title, fill, size, weight };
  return { ...scene, height: scene.height + dy, items: [head, ...scene.items.map(shift)] };
}

// Paints the scene on ctx (already scaled for devicePixelRatio by the caller).
export function drawScene(ctx, scene) {
  ctx.save();
  ctx.clearRect(0, 0, scene.width, scene.height);
  if (scene.background) {
    ctx.fillStyle = scene.background;
    ctx.fillRect(0, 0, scene.width, scene.height);
  }
  for (const it of scene.items) {
    ctx.globalAlpha = it.opacity ?? 1;
    switch (it.type) {
      case 'rect':
        roundRect(ctx, it.x, it.y, it.w, it.h, it.r);
        paintPath(ctx, it);
        break;
      case 'hatch': {
        ctx.fillStyle = it.fill;
        ctx.fillRect(it.x, it.y, it.w, it.h);
        ctx.save();
        ctx.beginPath();
        ctx.rect(it.x, it.y, it.w, it.h);
        ctx.clip();
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = 1;
        ctx.beginPath();
        const step = 5;
        for (let d = -it.h; d < it.w; d += step) {
          ctx.moveTo(it.x + d, it.y + it.h);
          ctx.lineTo(it.x + d + it.h, it.y);
        }
        ctx.stroke();
        ctx.restore();
        break;
      }
      case 'line':
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = it.lw ?? 1;
        ctx.setLineDash(it.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(it.x1, it.y1);
        ctx.lineTo(it.x2, it.y2);
        ctx.stroke();
        ctx.setLineDash([]);
        break;
      case 'poly': {
        const p = it.points;
        if (p.length < 4) break;
        ctx.beginPath();
        ctx.moveTo(p[0], p[1]);
        for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i], p[i + 1]);
        if (it.close) ctx.closePath();
        if (it.stroke) ctx.lineJoin = 'round';
        paintPath(ctx, it);
        break;
      }
      case 'circle':
        ctx.beginPath();
        ctx.arc(it.cx, it.cy, it.r, 0, 2 * Math.PI);
        paintPath(ctx, it);
        break;
      case 'text':
        ctx.font = fontString(scene, it);
        ctx.fillStyle = it.fill;
        ctx.textAlign = it.anchor === 'middle' ? 'center' : it.anchor === 'end' ? 'right' : 'left';
        ctx.textBaseline = it.baseline === 'top' ? 'top' : it.baseline === 'bottom' ? 'bottom' : it.baseline === 'alphabetic' ? 'alphabetic' : 'middle';
        if (it.rotate) {
          ctx.save();
          ctx.translate(it.x, it.y);
          ctx.rotate((it.rotate * Math.PI) / 180);
          ctx.fillText(it.text, 0, 0);
          ctx.restore();
        } else {
          ctx.fillText(it.text, it.x, it.y);
        }
        break;
      case 'cells': {
        // One pixel per cell, scaled up without smoothing: thousands of cells in one draw.
        const bitmap = cellBitmap(it);
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(bitmap, 0, 0, it.cols, it.rows, it.x, it.y, it.cols * it.cw, it.rows * it.ch);
        ctx.imageSmoothingEnabled = true;
        break;
      }
      default:
        break;
    }
  }
  ctx.restore();
}

// Text and attribute values as XML: markup characters as entities, and the control characters
// XML 1.0 cannot hold at all (a token may be ESC, BEL, …) shown as \x1b-style escapes, so the
// file still opens and says what the token was.
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
const n = (v) => (Math.round(v * 100) / 100).toString();
const strokeAttrs = (it) => (it.stroke ? ` stroke="${esc(it.stroke)}" stroke-width="${n(it.lw ?? 1)}"` : '');
const op = (it) => (it.opacity !== undefined && it.opacity !== 1 ? ` opacity="${n(it.opacity)}"` : '');

// The scene as a standalone SVG document.
export function sceneToSvg(scene) {
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${n(scene.width)}" height="${n(scene.height)}" viewBox="0 0 ${n(scene.width)} ${n(scene.height)}" font-family="${esc(scene.font ?? 'system-ui, sans-serif')}">`];
  // The hatch's lines in the colour the scene's first hatch item asks for.
  const hatchLine = scene.items.find((it) => it.type === 'hatch')?.stroke ?? 'currentColor';
  out.push(`<defs><pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="5" stroke="${esc(hatchLine)}" stroke-width="1"/></pattern></defs>`);
  if (scene.background) out.push(`<rect width="100%" height="100%" fill="${esc(scene.background)}"/>`);
  for (const it of scene.items) {
    switch (it.type) {
      case 'rect':
        out.push(`<rect x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}"${it.r ? ` rx="${n(it.r)}"` : ''} fill="${esc(it.fill ?? 'none')}"${strokeAttrs(it)}${op(it)}/>`);
        break;
      case 'hatch':
        out.push(`<rect x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" fill="${esc(it.fill)}"/><rect x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" fill="url(#hatch)"/>`);
        break;
      case 'line':
        out.push(`<line x1="${n(it.x1)}" y1="${n(it.y1)}" x2="${n(it.x2)}" y2="${n(it.y2)}" stroke="${esc(it.stroke)}" stroke-width="${n(it.lw ?? 1)}"${it.dash ? ` stroke-dasharray="${it.dash.join(' ')}"` : ''}${op(it)}/>`);
        break;
      case 'poly': {
        const pts = [];
        for (let i = 0; i < it.points.length; i += 2) pts.push(`${n(it.points[i])},${n(it.points[i + 1])}`);
        const tag = it.close ? 'polygon' : 'polyline';
        out.push(`<${tag} points="${pts.join(' ')}" fill="${esc(it.fill ?? 'none')}"${strokeAttrs(it)}${it.stroke ? ' stroke-linejoin="round"' : ''}${it.dash ? ` stroke-dasharray="${it.dash.join(' ')}"` : ''}${op(it)}/>`);
        break;
      }
      case 'circle':
        out.push(`<circle cx="${n(it.cx)}" cy="${n(it.cy)}" r="${n(it.r)}" fill="${esc(it.fill ?? 'none')}"${strokeAttrs(it)}${op(it)}/>`);
        break;
      case 'text': {
        const anchor = it.anchor === 'middle' ? 'middle' : it.anchor === 'end' ? 'end' : 'start';
        const tr = it.rotate ? ` transform="rotate(${n(it.rotate)} ${n(it.x)} ${n(it.y)})"` : '';
        const fam = it.mono ? ` font-family="${esc(scene.monoFont ?? 'ui-monospace, monospace')}"` : '';
        out.push(`<text x="${n(it.x)}" y="${n(it.y)}" font-size="${n(it.size ?? 12)}" font-weight="${it.weight ?? 400}" fill="${esc(it.fill)}" text-anchor="${anchor}" dominant-baseline="${BASELINES[it.baseline ?? 'middle']}"${fam}${tr}${op(it)}>${esc(it.text)}</text>`);
        break;
      }
      case 'cells':
        for (let r = 0; r < it.rows; ++r) {
          for (let c = 0; c < it.cols; ++c) {
            const o = (r * it.cols + c) * 4;
            if (it.rgba[o + 3] === 0) continue;
            out.push(`<rect x="${n(it.x + c * it.cw)}" y="${n(it.y + r * it.ch)}" width="${n(it.cw + 0.3)}" height="${n(it.ch + 0.3)}" fill="rgb(${it.rgba[o]},${it.rgba[o + 1]},${it.rgba[o + 2]})"/>`);
          }
        }
        break;
      default:
        break;
    }
  }
  out.push('</svg>');
  return out.join('\n');
}
