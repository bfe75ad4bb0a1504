// walkthrough/record.js — keeps what the history records for the walk-through in step with the
// page: again whenever the task or the model changes, and once more when the walk-through card is
// first on screen (a model other than the seed's is traced in full only from then on: see
// walkthroughRecord in derive.js).
import { walkthroughRecord } from './derive.js';

// app: the playground (state, record(), on()); root: where the panels are.
export function recordWalkthrough(app, root) {
  let seen = false;
  const record = () => app.record('walkthrough', walkthroughRecord(app.state, { seen }));
  app.on('state', ({ changed }) => (changed.includes('task') || changed.includes('model')) && record());
  const card = root.querySelector('tp-walkthrough-panel #walkthrough');  // its panel element is display: contents
  if (card && typeof IntersectionObserver !== 'function') seen = true;
  else if (card) {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      seen = true;
      record();
    });
    observer.observe(card);
  }
  record();
}
