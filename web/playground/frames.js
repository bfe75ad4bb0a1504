// frames.js — how often the page draws: whatever the worker sends, a kind of event is emitted at
// most once per animation frame (later()), and a panel out of sight draws nothing until it
// scrolls into view (whenVisible()), at most every `every` ms.

// Collects events and emits each kind once, at the next animation frame.
export class Frames {
  // emit(type, detail): where the events go; before(type, detail): may drop one (returns false).
  constructor(emit, before = () => true) {
    this.emit = emit;
    this.before = before;
    this.due = new Map();
    this.frame = 0;
  }

  later(type, detail) {
    this.due.set(type, detail);
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const due = [...this.due];
      this.due.clear();
      for (const [t, d] of due) if (this.before(t, d)) this.emit(t, d);
    });
  }

  cancel() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.due.clear();
  }
}

// A function that runs `render` now when `el` is on screen, else once it scrolls into view (once,
// with whatever is newest then), and at most every `every` ms: panels out of sight cost nothing
// while a run goes on. No margin around the viewport: a panel just below the fold is out of
// sight too (with the training bar alone in view, the panels under it would otherwise redraw
// for every snapshot), and catching up costs one draw in the frame it comes into view.
export function whenVisible(el, render, { every = 0 } = {}) {
  let visible = true, dirty = false, last = 0, timer = 0;
  const run = () => {
    dirty = false;
    last = performance.now();
    render();
  };
  const request = () => {
    dirty = true;
    if (!visible || timer) return;
    const wait = every - (performance.now() - last);
    if (wait <= 0) run();
    else timer = setTimeout(() => {
      timer = 0;
      if (dirty && visible) run();
    }, wait);
  };
  if (el && typeof IntersectionObserver !== 'undefined') {
    new IntersectionObserver((entries) => {
      visible = entries.at(-1).isIntersecting;
      if (visible && dirty) request();
    }).observe(el);
  }
  return request;
}
