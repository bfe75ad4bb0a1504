// probes.js — what the run's history records at every snapshot besides the page's own input
// ('main'): an input a panel traces (`probe`: { input, target?, full? }) and the small parameter
// tables it draws ([{ name, rows?, maxRows? }]). The training worker takes the whole list with
// setProbes() whenever it changes; send() does that and says while the worker traces the
// history again on the new inputs (from each snapshot's weights).
export class Probes {
  constructor() {
    this.probes = new Map();  // panel -> probe
    this.params = new Map();  // panel -> tables
    this.job = null;          // the newest send()'s promise: an older one settling changes nothing
  }

  // Sends the list to `session`: retracing(true) now, retracing(false) once the newest send's
  // setProbes() settles; failed(error) on an error.
  send(session, input, { retracing, failed }) {
    const job = (this.job = session.setProbes(this.request(input)));
    retracing(true);
    job.then(() => job === this.job && retracing(false), (e) => {
      if (job === this.job) retracing(false);
      failed(e);
    });
  }

  // Sets what `key` (a panel) wants recorded; true when that changed anything.
  record(key, { probe = null, params = [] } = {}) {
    const before = JSON.stringify([this.probes.get(key), this.params.get(key)]);
    if (probe) this.probes.set(key, probe);
    else this.probes.delete(key);
    this.params.set(key, params);
    return JSON.stringify([this.probes.get(key), this.params.get(key)]) !== before;
  }

  // What setProbes() takes, with the page's input as probe 'main'.
  request(input) {
    const probes = [{ key: 'main', input: input || null }, ...[...this.probes].map(([key, p]) => ({ key, ...p }))];
    const params = [...new Map([...this.params.values()].flat().map((p) => [p.name, p])).values()];
    return { probes, params };
  }
}
